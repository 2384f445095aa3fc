// Lint: typescript-eslint with type information, over every TypeScript source of the product,
// its tests, its benchmarks and its scripts. Import boundaries (which layer may import which) are
// held by dependency-cruiser (.dependency-cruiser.cjs); formatting by Prettier (.prettierrc.json).
// `npm run lint` runs all three (docs/engineering.md).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const TESTS = ['test/**/*.ts', 'libs/*/test/**/*.ts', 'services/*/test/**/*.ts'];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '.engines/**', '.tools/**', 'bench/results/**', 'test-artifacts/**', '**/*.js', '**/*.mjs', '**/*.cjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      // Explicit projects rather than the project service: the tests under libs/*/test and
      // services/*/test, and the scripts, belong to test/tsconfig.json, not to the nearest tsconfig.json.
      parserOptions: {
        project: ['libs/*/tsconfig.json', 'services/*/tsconfig.json', 'services/console/src/web/tsconfig.json', 'test/tsconfig.json', 'bench/tsconfig.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // A failure is never swallowed (CONTRIBUTING.md rule 6): an empty catch says nothing about what went wrong.
      'no-empty': ['error', { allowEmptyCatch: false }],
      // Contracts and libraries export by name (CONTRIBUTING.md rule 10).
      'no-restricted-syntax': ['error', { selector: 'ExportAllDeclaration', message: 'Export by name: list what the module offers.' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, attributes: false } }],
    },
  },
  {
    files: ['libs/sqlite/src/**/*.ts'],
    rules: {
      // better-sqlite3 is synchronous: these adapters keep `async` on the port's methods so a thrown error is a rejection, as the port promises.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: TESTS,
    rules: {
      // Fakes of async ports answer at once; `async` keeps their throws rejections, as the real adapter's.
      '@typescript-eslint/require-await': 'off',
      // Tests read parsed YAML, JSON and MCP answers as `any` on purpose: the assertion that follows is the type check.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
    },
  },
);
