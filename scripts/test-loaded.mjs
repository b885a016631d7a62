/**
 * `npm run test:loaded`: the whole vitest suite with two CPU burners beside it, the way a busy 2-core
 * machine runs it. A test that holds only on an idle machine (a wall-clock margin, a race with the
 * event loop) fails here. Extra arguments go to `vitest run` (`npm run test:loaded -- test/x.test.ts`;
 * BURNERS=n sets how many burners). The burners are killed whatever happens; the exit code is vitest's.
 */
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const count = Number(process.env.BURNERS ?? 2);

// A burner spins, and every so often checks that this script is still its parent: should the script
// itself be killed outright (SIGKILL, where no handler runs), the burners do not outlive it.
const BURN = `const parent = process.ppid; for (;;) { for (let i = 0; i < 5e7; i++); if (process.ppid !== parent) process.exit(0); }`;
const burners = Array.from({ length: count }, () =>
  spawn(process.execPath, ['-e', BURN], { stdio: 'ignore' }),
);

function stopBurners() {
  for (const b of burners) if (b.exitCode === null && b.signalCode === null) b.kill('SIGKILL');
}
process.on('exit', stopBurners);

const started = performance.now();
const vitest = spawn(
  process.execPath,
  [
    fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url)),
    'run',
    ...process.argv.slice(2),
  ],
  { cwd: root, stdio: 'inherit' },
);
// Ctrl-C reaches vitest too (same process group): wait for it to finish, then stop the burners
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => vitest.kill(sig));

vitest.on('error', (e) => {
  console.error(`test:loaded: cannot start vitest: ${e.message}`);
  process.exitCode = 1;
  stopBurners();
});
vitest.on('exit', (code, signal) => {
  stopBurners();
  const secs = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `test:loaded: vitest ${signal ? `killed by ${signal}` : `exited ${code}`} after ${secs} s beside ${count} CPU burners`,
  );
  process.exitCode = code ?? 1;
});
