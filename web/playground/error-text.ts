// What went wrong, in words, whatever was thrown: a start that fails can reject with an
// Error, a string, a plain object with a message, or a script's error event, and
// `String()` of most of them says only "[object Object]".

/** The message of `error`, as the judge panel shows it. */
export function errorText(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  if (typeof error === "string") return error;
  if (typeof error === "object" && error !== null) {
    const { message, type, filename } = error as { message?: unknown; type?: unknown; filename?: unknown };
    if (typeof message === "string" && message !== "") return message;
    // An event (a script or a module that did not load) has a type, and maybe a file.
    if (typeof type === "string") return `${type} event${typeof filename === "string" && filename !== "" ? ` in ${filename}` : ""}`;
    try {
      const json = JSON.stringify(error);
      if (json !== undefined && json !== "{}") return json;
    } catch {
      // A cycle: nothing better than the class's name below.
    }
    return `an unknown ${error.constructor?.name ?? "object"}`;
  }
  return String(error);
}
