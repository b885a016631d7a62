#!/usr/bin/env node
// `node argv-echo.mjs <log> <arg>...`: appends the arguments it received (after the log path) as one
// JSON line to <log>, and answers rgate's contract with d1, so a test sees exactly what a system got.
import { appendFileSync } from 'node:fs';

const [log, ...args] = process.argv.slice(2);
appendFileSync(log, JSON.stringify(args) + '\n');
process.stdout.write(JSON.stringify({ ranked: [{ id: 'd1', score: 1 }] }) + '\n');
