// Lint rules on top of `tsc --strict`: the recommended sets, type-aware, with no
// exceptions, so `npm run lint` fails on any warning.

import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/", "out/", "node_modules/", "syntaxes/", "media/"] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ["*.mjs", "scripts/*.mjs", "e2e/*.mjs"] } },
    },
    rules: {
      // node:test runs the promises `test()` returns itself; awaiting them is optional.
      "@typescript-eslint/no-floating-promises": [
        "error",
        { allowForKnownSafeCalls: [{ from: "package", package: "node:test", name: "test" }] },
      ],
    },
  },
  {
    // The web entry and its worker are checked against their own project (the worker's
    // globals, the core's loader from web/).
    files: ["src/web/**/*.ts"],
    languageOptions: {
      parserOptions: { projectService: false, project: "./tsconfig.web.json", tsconfigRootDir: import.meta.dirname },
    },
  },
  {
    files: ["**/*.mjs"],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { globals: { process: "readonly" } },
  },
  {
    // The real-editor test runs in Node and hands some functions to the page.
    files: ["e2e/*.mjs"],
    languageOptions: {
      globals: {
        console: "readonly",
        setTimeout: "readonly",
        URL: "readonly",
        document: "readonly",
        getComputedStyle: "readonly",
      },
    },
  },
);
