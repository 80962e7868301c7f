import js from "@eslint/js";
import prettier from "eslint-config-prettier";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: [".next/**", "dist/**", "src/generated/**", "bench/out/**", "playwright-report/**", "test-results/**", "next-env.d.ts"] },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  tseslint.configs.stylisticTypeChecked,
  {
    languageOptions: { globals: globals.node, parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/consistent-type-definitions": ["error", "type"],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      // `a || b` on strings treats "" as missing, which is what such code means.
      "@typescript-eslint/prefer-nullish-coalescing": ["error", { ignorePrimitives: { string: true } }],
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { attributes: false } }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      // Channel types, permission bits and the like are stored as numbers and compared with
      // discord-api-types' enums on purpose.
      "@typescript-eslint/no-unsafe-enum-comparison": "off",
    },
  },
  {
    // Tests read JSON bodies whose shape is what they assert.
    files: ["**/*.test.ts", "**/*.integration-test.ts", "src/test/**", "e2e/**"],
    rules: {
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-return": "off",
    },
  },
  {
    files: ["src/app/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["~/server/db", "~/server/db/*"],
              message: "Pages and route handlers reach data through services (tRPC procedures, the REST dispatcher).",
            },
          ],
        },
      ],
    },
  },
  { files: ["**/*.js", "**/*.cjs", "**/*.mjs"], extends: [tseslint.configs.disableTypeChecked] },
  prettier,
);
