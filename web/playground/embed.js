// The game view in the playground's frame: it talks to the page around it with the
// messages it uses in the VS Code extension's webview (web/src/main.ts, vscodeHost).
window.acquireVsCodeApi = () => ({ postMessage: (message) => window.parent.postMessage(message, "*") });
