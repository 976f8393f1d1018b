// The one message for a failed server, the bounded stderr it quotes, and the restart limit.

import * as assert from "node:assert/strict";
import { test } from "node:test";

import { failureMessage, OutputTail, RestartPolicy } from "../src/failure";
import { settingOrigin } from "../src/settings";

test("a server that fails as it starts: path, origin, exit code and stderr in one message", () => {
  const stderr = new OutputTail();
  stderr.append("error: unrecognized subcommand 'lsp'\n");
  const message = failureMessage({
    path: "/opt/old/cmg",
    source: "setting",
    settingOrigin: "the User settings",
    exit: { code: 2, signal: null },
    stderr,
    started: false,
  });
  assert.equal(
    message,
    "cmg: the language server /opt/old/cmg (found via cmg.server.path in the User settings) " +
      "failed as it started (exit code 2). Its stderr: error: unrecognized subcommand 'lsp'",
  );
});

test("a crash loop, a signal, a silent server and a spawn error are each named", () => {
  const silent = failureMessage({
    path: "/usr/bin/cmg",
    source: "PATH",
    exit: { code: null, signal: "SIGSEGV" },
    stderr: new OutputTail(),
    started: true,
    crashes: 4,
  });
  assert.match(silent, /crashed 4 times in a few minutes \(killed by SIGSEGV\) and is not restarted/);
  assert.match(silent, /found via PATH/);
  assert.match(silent, /It printed nothing on stderr\.$/);
  const missing = failureMessage({
    path: "/nope/cmg",
    source: "setting",
    exit: undefined,
    startError: "spawn /nope/cmg EACCES",
    stderr: new OutputTail(),
    started: false,
  });
  assert.match(missing, /failed as it started \(spawn \/nope\/cmg EACCES\)/);
});

test("the stderr tail stays bounded and says when it was cut", () => {
  const tail = new OutputTail(10);
  tail.append("0123456789abc");
  tail.append("def");
  assert.equal(tail.last(100), "…6789abcdef");
  const short = new OutputTail(100);
  short.append("  panic at the start  \n");
  assert.equal(short.last(5), "…start");
  assert.equal(short.last(100), "panic at the start");
});

test("restarts stop after three crashes within three minutes, and resume later", () => {
  const policy = new RestartPolicy();
  const minute = 60_000;
  assert.deepEqual(
    [0, 1, 2, 3].map((i) => policy.crashed(i * 1000)),
    [true, true, true, false],
  );
  assert.equal(policy.recent, 4);
  assert.equal(policy.crashed(10 * minute), true);
  assert.equal(policy.recent, 1);
});

test("the origin of a setting is its most specific layer", () => {
  assert.equal(settingOrigin("/a", { globalValue: "/a" }), "the User settings (or the Remote settings of a remote window)");
  assert.equal(settingOrigin("/b", { globalValue: "/a", workspaceValue: "/b" }), "the Workspace settings");
  assert.equal(settingOrigin("", {}), "no settings scope (the default)");
  assert.equal(settingOrigin(undefined, undefined), "no settings scope (the default)");
});
