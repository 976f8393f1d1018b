// `npm run package:bundled`: a platform `.vsix` with the language server inside, for
// people who have VS Code and no Rust. It puts the `cmg` binary at `server/cmg`
// (`server/cmg.exe` on Windows), where the extension looks before PATH
// (src/discovery.ts), and runs `vsce package --target` for this machine, so the
// Marketplace and `code --install-extension` only offer it where the binary runs.
//
// The binary is `CMG_SERVER_BINARY` when set, else `target/release/cmg` of the
// repository (`CARGO_TARGET_DIR` honoured), built with `cargo build --release --locked`
// when it is missing. `CMG_VSCE_TARGET` overrides the target, for a binary built for
// another platform; without it, the binary must run here and report the extension's
// version, so that a stale build is never shipped.
//
// `server/` is removed again afterwards, so a later plain `npm run package` stays the
// universal `.vsix` that finds the server on PATH or through the setting.

import { spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const extension = join(dirname(fileURLToPath(import.meta.url)), "..");
const repository = resolve(extension, "..", "..");
const manifest = JSON.parse(readFileSync(join(extension, "package.json"), "utf8"));

function log(message) {
  process.stdout.write(`package:bundled: ${message}\n`);
}

function die(message) {
  process.stderr.write(`package:bundled: ${message}\n`);
  process.exit(1);
}

function run(command, args, options = {}) {
  log(`${command} ${args.join(" ")}`);
  const result = spawnSync(command, args, { stdio: "inherit", ...options });
  if (result.error) {
    die(`could not run ${command}: ${result.error.message}`);
  }
  if (result.status !== 0) {
    die(`${command} ${args.join(" ")} failed (${result.signal ?? `exit code ${result.status}`})`);
  }
}

/**
 * The `vsce --target` name of this machine. Only the pairs vsce knows; Alpine (musl)
 * is left to `CMG_VSCE_TARGET`, since a binary linked against glibc would not run there.
 */
function hostTarget() {
  const platform = { linux: "linux", darwin: "darwin", win32: "win32" }[process.platform];
  const arch = { x64: "x64", arm64: "arm64", arm: "armhf" }[process.arch];
  if (platform === undefined || arch === undefined || (arch === "armhf" && platform !== "linux")) {
    die(`no VS Code platform target for ${process.platform}-${process.arch}; set CMG_VSCE_TARGET`);
  }
  return `${platform}-${arch}`;
}

const target = process.env.CMG_VSCE_TARGET || hostTarget();
const windows = target.startsWith("win32-");
const binaryName = windows ? "cmg.exe" : "cmg";

let binary = process.env.CMG_SERVER_BINARY;
if (binary) {
  binary = resolve(binary);
  if (!existsSync(binary)) {
    die(`CMG_SERVER_BINARY is ${binary}, which does not exist`);
  }
} else {
  const targetDir = resolve(repository, process.env.CARGO_TARGET_DIR || "target");
  binary = join(targetDir, "release", process.platform === "win32" ? "cmg.exe" : "cmg");
  if (!existsSync(binary)) {
    log(`${binary} is missing; building it (a few minutes)`);
    run("cargo", ["build", "--release", "--locked", "--bin", "cmg"], { cwd: repository });
    if (!existsSync(binary)) {
      die(`cargo build --release did not write ${binary}`);
    }
  }
}

// A binary for this machine must be a `cmg` of the extension's version; one built
// for another platform (CMG_VSCE_TARGET set) cannot be run to ask.
if (!process.env.CMG_VSCE_TARGET) {
  const version = spawnSync(binary, ["--version"], { encoding: "utf8" });
  const said = (version.stdout ?? "").trim();
  if (version.status !== 0 || said !== `cmg ${manifest.version}`) {
    die(
      `${binary} --version says "${said}"${version.error ? ` (${version.error.message})` : ""}, ` +
        `not "cmg ${manifest.version}": rebuild it (cargo build --release) or set CMG_SERVER_BINARY`,
    );
  }
}

const server = join(extension, "server");
rmSync(server, { recursive: true, force: true });
mkdirSync(server);
const bundled = join(server, binaryName);
copyFileSync(binary, bundled);
// vsce keeps a file's mode in the .vsix, and VS Code restores it when it installs one.
chmodSync(bundled, 0o755);
try {
  // vsce's own command-line entry point, run with this Node: no shell, no `.cmd` shim.
  const vsce = join(extension, "node_modules", "@vscode", "vsce", "vsce");
  run(
    process.execPath,
    [vsce, "package", "--no-dependencies", "--allow-missing-repository", "--target", target],
    { cwd: extension },
  );
} finally {
  rmSync(server, { recursive: true, force: true });
}
log(`${manifest.name}-${target}-${manifest.version}.vsix holds ${binary}`);
