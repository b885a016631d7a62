import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Client scripts the HTML pages inline (the templates folders of reports), run by a browser, not node. */
const BROWSER_SCRIPTS = 'reports/*/templates/*.js';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      '.rgate/**',
      'fixtures/**',
      'reports/vendor/**',
      'test/sut/**/*.cjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.cts'],
    rules: {
      // Determinism: Math.random must never reach a ranking, a metric or a report (DESIGN.md).
      'no-restricted-properties': [
        'error',
        { object: 'Math', property: 'random', message: 'Use the seeded PRNG in src/core/prng.ts.' },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ignores: [BROWSER_SCRIPTS],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        require: 'readonly',
        module: 'writable',
        setTimeout: 'readonly',
        setInterval: 'readonly',
        clearTimeout: 'readonly',
        clearInterval: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
      },
    },
  },
  {
    // inlined into the HTML report as a classic <script>, beside chart.js's UMD global
    files: [BROWSER_SCRIPTS],
    languageOptions: {
      sourceType: 'script',
      globals: { document: 'readonly', Chart: 'readonly' },
    },
  },
);
