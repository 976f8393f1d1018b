// Checks the packaged `.vsix` and keeps the extension's data in step with the rest of
// the repository: the grammar (one copy, same scope) and the lexer's keywords.

import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "node:test";

import { JUDGED_LANGUAGES } from "../src/judgeReport";
import { readZip } from "./zip";

// Compiled tests run from `out/test`, so the extension's folder is two levels up.
const extensionRoot = path.resolve(__dirname, "..", "..");
const repositoryRoot = path.resolve(extensionRoot, "..", "..");

interface Manifest {
  name: string;
  version: string;
  main: string;
  contributes: {
    languages: { id: string; extensions: string[]; configuration: string }[];
    grammars: { language: string; scopeName: string; path: string }[];
    configuration: { properties: Record<string, { default?: unknown }> };
    commands: { command: string }[];
    menus: Record<string, { command: string; when?: string }[]>;
    semanticTokenModifiers: { id: string }[];
    semanticTokenScopes: { language: string; scopes: Record<string, string[]> }[];
  };
}

interface Grammar {
  scopeName: string;
  repository: Record<string, { match?: string }>;
}

const manifest = JSON.parse(
  fs.readFileSync(path.join(extensionRoot, "package.json"), "utf8"),
) as Manifest;
const grammarText = fs.readFileSync(path.join(repositoryRoot, "grammar", "cmg.tmLanguage.json"), "utf8");
const grammar = JSON.parse(grammarText) as Grammar;

/** A Rust source file, by its path from the repository root. */
function readRust(file: string): string {
  return fs.readFileSync(path.join(repositoryRoot, file), "utf8");
}

/** Every scope name the grammar can assign, split on spaces, `$0` names expanded. */
function grammarScopes(): Set<string> {
  const scopes = new Set<string>();
  for (const match of grammarText.matchAll(/"name": "([^"]+)"/g)) {
    for (const scope of match[1]!.split(" ")) {
      scopes.add(scope);
    }
  }
  return scopes;
}

/** `vsce` names the package after the manifest, so there is exactly one file to find. */
function vsixFiles(): Map<string, Buffer> {
  const file = path.join(extensionRoot, `${manifest.name}-${manifest.version}.vsix`);
  assert.ok(fs.existsSync(file), `${file} is missing: run \`npm run package\` before \`npm test\``);
  return readZip(file);
}

test("the .vsix holds the bundle, the grammar and the language configuration", () => {
  const files = vsixFiles();
  for (const name of [
    "extension/package.json",
    "extension/dist/extension.js",
    "extension/syntaxes/cmg.tmLanguage.json",
    "extension/language-configuration.json",
    "extension/readme.md",
    "extension/LICENSE.txt",
  ]) {
    assert.ok(files.has(name), `${name} is not in the .vsix; it has ${[...files.keys()].join(", ")}`);
  }
  // The bundle is self-contained: no sources, tests or node_modules are shipped.
  for (const name of files.keys()) {
    assert.doesNotMatch(name, /^extension\/(node_modules|src|test|out|scripts)\//);
  }
  assert.equal(files.get("extension/syntaxes/cmg.tmLanguage.json")!.toString("utf8"), grammarText);
  const bundle = files.get("extension/dist/extension.js")!.toString("utf8");
  assert.match(bundle, /require\("vscode"\)/);
  assert.doesNotMatch(bundle, /require\("vscode-languageclient/, "the client library must be bundled");
  const packed = JSON.parse(files.get("extension/package.json")!.toString("utf8")) as Manifest;
  assert.deepEqual(packed.contributes, manifest.contributes);
});

test("the .vsix carries the web entry's judge: the playground's workers, judge.wasm and Pyodide", () => {
  const files = vsixFiles();
  const pyodide = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"];
  for (const name of ["judge-worker.js", "judge-solution.js", "judge.wasm", ...pyodide.map((file) => `pyodide/${file}`)]) {
    assert.ok(files.has(`extension/dist/web/${name}`), `dist/web/${name} is not in the .vsix`);
  }
  // judge.wasm as it is, the magic number first.
  assert.deepEqual([...files.get("extension/dist/web/judge.wasm")!.subarray(0, 4)], [0, 0x61, 0x73, 0x6d]);
});

test("every path the manifest names is in the .vsix", () => {
  const files = vsixFiles();
  const paths = [
    manifest.main,
    ...manifest.contributes.languages.map((language) => language.configuration),
    ...manifest.contributes.grammars.map((entry) => entry.path),
  ];
  for (const file of paths) {
    assert.ok(files.has(path.posix.join("extension", file)), `${file} is named but not packaged`);
  }
});

test("the language and grammar contributions agree with the grammar", () => {
  const [language] = manifest.contributes.languages;
  assert.equal(language?.id, "cmg");
  assert.deepEqual(language?.extensions, [".cmg"]);
  assert.deepEqual(manifest.contributes.grammars, [
    { language: "cmg", scopeName: grammar.scopeName, path: "./syntaxes/cmg.tmLanguage.json" },
  ]);
  assert.equal(grammar.scopeName, "source.cmg");
});

// The settings and the semantic-token modifiers and scopes of the manifest are written by
// `cargo xtask codegen` from the server's tables; `cargo test` fails when they are stale.

test("commands: restart is contributed, the code lens command is left to the server", () => {
  const commands = manifest.contributes.commands.map((entry) => entry.command);
  assert.deepEqual(commands, ["cmg.restartServer", "cmg.openGameView", "cmg.judge"]);
  // The server announces `cmg.showLine` in executeCommandProvider; the language client
  // registers it, and a second registration by the extension would fail.
  assert.match(readRust("crates/cmg-lsp/src/requests/commands.rs"), /"cmg\.showLine"/);
  assert.doesNotMatch(fs.readFileSync(path.join(extensionRoot, "src", "extension.ts"), "utf8"), /cmg\.showLine/);
});

test("the judge command is offered on exactly the languages it judges", () => {
  const menus = manifest.contributes.menus;
  const offers = ["editor/title", "editor/context", "commandPalette"].map(
    (menu) => menus[menu]?.find((entry) => entry.command === "cmg.judge")?.when ?? "",
  );
  for (const when of offers) {
    const languages = /^editorLangId =~ \/\^\(([a-z|]+)\)\$\/$/.exec(when)?.[1]?.split("|").sort();
    assert.deepEqual(languages, Object.keys(JUDGED_LANGUAGES).sort(), when);
  }
});

/**
 * The node roles are coloured through scopes every theme knows, one root each, so that
 * they stand out from plain ids (`constant.numeric`) and from each other in any theme;
 * the grammar's own scopes for them (`constant.numeric.node.hole.cmg`...) get the
 * colour of a plain number in the default themes.
 */
const ROLE_SCOPES: Record<string, string> = {
  "enumMember.hole": "keyword.control",
  "enumMember.mouseStart": "entity.name.function",
  "enumMember.catStart": "entity.name.type",
};

test("semantic token scopes use the server's modifiers, the grammar's scopes and standard role scopes", () => {
  const modifiers = manifest.contributes.semanticTokenModifiers.map((entry) => entry.id);
  const [entry] = manifest.contributes.semanticTokenScopes;
  assert.equal(entry?.language, "cmg");
  const scopes = grammarScopes();
  for (const [selector, targets] of Object.entries(entry?.scopes ?? {})) {
    const [type, ...used] = selector.split(".");
    assert.ok(["number", "enumMember", "keyword", "string", "comment", "operator"].includes(type!), selector);
    for (const modifier of used) {
      assert.ok(modifiers.includes(modifier), `${selector} uses an undeclared modifier`);
    }
    const role = ROLE_SCOPES[selector];
    for (const target of targets) {
      if (role !== undefined) {
        assert.ok(target.startsWith(`${role}.`), `${selector} should map to ${role}.*, not ${target}`);
        continue;
      }
      // A scope like `keyword.other.cmg` is a prefix of what the grammar assigns
      // (`keyword.other.node.cmg`), which is how themes match it too.
      const stem = target.replace(/\.cmg$/, "");
      const known = [...scopes].some((scope) => scope === target || scope.startsWith(`${stem}.`));
      assert.ok(known, `${target} (for ${selector}) is not a scope of the grammar`);
    }
  }
  for (const selector of Object.keys(ROLE_SCOPES)) {
    assert.ok(entry?.scopes[selector] !== undefined, `no scope for ${selector}`);
  }
});

test("the grammar's keywords are the lexer's keywords", () => {
  const lexer = readRust("crates/cmg-syntax/src/lexer.rs");
  const lexerWords = [...lexer.matchAll(/#\[token\("([A-Za-z]+)"\)\]/g)].map((match) => match[1]!);
  const grammarWords = ["keyword", "outcome"].flatMap((rule) => {
    const match = grammar.repository[rule]?.match ?? "";
    const words = /^\(\?:([a-z|]+)\)/.exec(match);
    assert.ok(words, `grammar rule ${rule} does not start with a word list`);
    return words[1]!.split("|");
  });
  assert.ok(lexerWords.length > 0, "no keyword tokens found in crates/cmg-syntax/src/lexer.rs");
  assert.deepEqual(grammarWords.sort(), lexerWords.sort());
});

test("the packaged bundle loads with nothing but `vscode` supplied", async () => {
  const os = await import("node:os");
  const Module = (await import("node:module")).default as unknown as {
    _load: (request: string, ...rest: unknown[]) => unknown;
  };
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "cmg-bundle-"));
  const bundle = path.join(directory, "extension.js");
  fs.writeFileSync(bundle, vsixFiles().get("extension/dist/extension.js")!);
  // Any property of the stand-in is another stand-in, so module-level code that
  // touches the API (`class X extends vscode.Y`) runs; a require of anything not
  // bundled would still throw.
  const standIn = (): unknown =>
    new Proxy(function () {}, {
      get: (_target, property) => (property === "prototype" ? {} : standIn()),
      construct: () => standIn() as object,
    });
  const load = Module._load;
  Module._load = (request: string, ...rest: unknown[]) =>
    request === "vscode" ? standIn() : load.call(Module, request, ...rest);
  try {
    const extension = (await import(bundle)) as Record<string, unknown>;
    assert.equal(typeof extension.activate, "function");
    assert.equal(typeof extension.deactivate, "function");
  } finally {
    Module._load = load;
    fs.rmSync(directory, { recursive: true });
  }
});
