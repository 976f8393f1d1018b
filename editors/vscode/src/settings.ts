// The settings the server reads, in the shape `crates/cmg-lsp/src/config.rs` expects. Kept apart
// from `vscode` so that tests can check the shape without an editor.

/** The `cmg.*` settings the server understands, as the editor's settings name them. */
export const SERVER_SETTINGS = [
  "solver.maxNodes",
  "solver.maxMemoryMiB",
  "analysis.maxDocumentBytes",
  "diagnostics.max",
  "inlayHints.nodes",
] as const;

export type ServerSetting = (typeof SERVER_SETTINGS)[number];

/**
 * Builds the initialization options, `{solver: {maxNodes, maxMemoryMiB}, analysis:
 * {maxDocumentBytes}, diagnostics: {max}, inlayHints: {nodes}}`, from
 * a reader of the `cmg` configuration section. Values the user has not set come back
 * as `undefined` and are left out, so that the server keeps its own defaults.
 */
export function initializationOptions(read: (key: ServerSetting) => unknown): Record<string, unknown> {
  const options: Record<string, Record<string, unknown>> = {};
  for (const key of SERVER_SETTINGS) {
    const value = read(key);
    if (value === undefined) {
      continue;
    }
    const [group, name] = key.split(".") as [string, string];
    options[group] = { ...options[group], [name]: value };
  }
  return options;
}

/** The layers of one setting, as `WorkspaceConfiguration.inspect` reports them. */
export interface SettingLayers<T> {
  globalValue?: T;
  workspaceValue?: T;
  workspaceFolderValue?: T;
}

/**
 * Names the settings scope a value came from, for messages: the most specific layer
 * that holds it. The editor merges the User settings of a remote window with the
 * Remote settings of its machine into one layer, so that layer names both.
 */
export function settingOrigin<T>(value: T | undefined, layers: SettingLayers<T> | undefined): string {
  if (value === undefined || layers === undefined) {
    return "no settings scope (the default)";
  }
  if (layers.workspaceFolderValue === value) {
    return "the Workspace Folder settings";
  }
  if (layers.workspaceValue === value) {
    return "the Workspace settings";
  }
  if (layers.globalValue === value) {
    return "the User settings (or the Remote settings of a remote window)";
  }
  return "no settings scope (the default)";
}
