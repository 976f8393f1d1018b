// Checks the packaged `.vsix` and keeps the extension's data in step with the rest of
// the repository: the grammar (one copy, same scope), the lexer's keywords, and the
// settings the server reads in `crates/cmg-lsp/src/config.rs`.

import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "node:test";

import { SERVER_SETTINGS } from "../src/settings";
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

/** A source file of the workspace crate `cmg-<crate>`. */
function readRust(crate: string, file: string): string {
  return fs.readFileSync(path.join(repositoryRoot, "crates", `cmg-${crate}`, "src", file), "utf8");
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

test("settings match what crates/cmg-lsp/src/config.rs reads, with the same defaults", () => {
  const config = readRust("lsp", "config.rs");
  // `update` reads each setting through `lookup(&["group", "name"])` or one of its
  // typed helpers (`size(&[...])`).
  const read = [...config.matchAll(/(?:lookup|size)\(&\[\s*"(\w+)",\s*"(\w+)"\s*\]\)/g)].map(
    (match) => `${match[1]}.${match[2]}`,
  );
  assert.deepEqual(read.sort(), [...SERVER_SETTINGS].sort(), "the server reads other settings than the client sends");
  const properties = manifest.contributes.configuration.properties;
  assert.deepEqual(
    Object.keys(properties).sort(),
    ["cmg.server.path", "cmg.trace.server", ...SERVER_SETTINGS.map((key) => `cmg.${key}`)].sort(),
  );
  // The defaults as `Config::default()` writes them, field by field.
  const body = /fn default\(\) -> Config \{([\s\S]*?)\n {4}\}/.exec(config);
  assert.ok(body, "Config::default() not found in crates/cmg-lsp/src/config.rs");
  const fields = body[1] ?? "";
  const field = (name: string): string => {
    const match = new RegExp(`${name}:\\s*([^,]+),`).exec(fields);
    assert.ok(match?.[1], `${name} not found in Config::default()`);
    return match[1].trim();
  };
  const integer = (expression: string): number => {
    // `8 << 20` is how the byte limit is written.
    const shift = /^(\d+)\s*<<\s*(\d+)$/.exec(expression);
    return shift ? Number(shift[1]) * 2 ** Number(shift[2]) : Number(expression);
  };
  const expected: Record<string, unknown> = {
    "cmg.solver.maxNodes": integer(field("max_nodes")),
    "cmg.solver.maxMemoryMiB": integer(field("max_solver_memory_mib")),
    "cmg.analysis.maxDocumentBytes": integer(field("max_document_bytes")),
    "cmg.diagnostics.max": integer(field("max_diagnostics")),
    "cmg.inlayHints.nodes": field("node_hints") === "true",
  };
  for (const [key, value] of Object.entries(expected)) {
    assert.equal(properties[key]?.default, value, key);
  }
  assert.equal(properties["cmg.solver.maxNodes"]?.default, 5000);
});

test("commands: restart is contributed, the code lens command is left to the server", () => {
  const commands = manifest.contributes.commands.map((entry) => entry.command);
  assert.deepEqual(commands, ["cmg.restartServer", "cmg.openGameView"]);
  // The server announces `cmg.showLine` in executeCommandProvider; the language client
  // registers it, and a second registration by the extension would fail.
  assert.match(readRust("lsp", "handlers.rs"), /"cmg\.showLine"/);
  assert.doesNotMatch(fs.readFileSync(path.join(extensionRoot, "src", "extension.ts"), "utf8"), /cmg\.showLine/);
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
  assert.deepEqual(modifiers.sort(), ["catStart", "hole", "mouseStart", "outcome"]);
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
  const lexer = readRust("syntax", "lexer.rs");
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
