// Lint: typescript-eslint with type information, over every TypeScript source of the product,
// its tests and its benchmarks. Import boundaries (which layer may import which) are held by
// dependency-cruiser (.dependency-cruiser.cjs); formatting by Prettier (.prettierrc.json).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '.engines/**', '.tools/**', 'bench/results/**', '**/*.js', '**/*.mjs', '**/*.cjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // A failure is never swallowed (STYLE rule 6): an empty catch says nothing about what went wrong.
      'no-empty': ['error', { allowEmptyCatch: false }],
      // Contracts and libraries export by name (STYLE rule 10).
      'no-restricted-syntax': ['error', { selector: 'ExportAllDeclaration', message: 'Export by name: list what the module offers.' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, attributes: false } }],
    },
  },
);
