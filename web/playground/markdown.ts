// The Markdown of the language server's hovers, drawn as VS Code draws it: paragraphs,
// bullet lists, fenced code, **bold**, *emphasis* and `code`. The subset the hovers use
// (crates/cmg-ide/src/hover/); anything else stays as written. Text is only ever put in
// as text: labels from the file cannot become markup.

export type Inline = { text: string; style: "plain" | "bold" | "emphasis" | "code" };
export type Block =
  | { kind: "paragraph"; lines: Inline[][] }
  | { kind: "list"; items: Inline[][] }
  | { kind: "code"; text: string };

/** The inline parts of one line: `code` first (nothing inside it is markup), then **bold** and *emphasis*. */
export function inlines(line: string): Inline[] {
  const parts: Inline[] = [];
  const pattern = /`([^`]+)`|\*\*(.+?)\*\*|(?<![\w*])\*(?!\s)([^*]+?)\*(?![\w*])/g;
  let at = 0;
  for (const match of line.matchAll(pattern)) {
    if (match.index > at) parts.push({ text: line.slice(at, match.index), style: "plain" });
    if (match[1] !== undefined) parts.push({ text: match[1], style: "code" });
    else if (match[2] !== undefined) parts.push({ text: match[2], style: "bold" });
    else parts.push({ text: match[3], style: "emphasis" });
    at = match.index + match[0].length;
  }
  if (at < line.length) parts.push({ text: line.slice(at), style: "plain" });
  return parts;
}

/** The blocks of a Markdown text. */
export function blocks(markdown: string): Block[] {
  const out: Block[] = [];
  const lines = markdown.replace(/\r\n?/g, "\n").split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.trim() === "") continue;
    if (line.startsWith("```")) {
      const body: string[] = [];
      for (i++; i < lines.length && !lines[i].startsWith("```"); i++) body.push(lines[i]);
      out.push({ kind: "code", text: body.join("\n") });
      continue;
    }
    const item = /^\s*[-*] (.*)$/.exec(line);
    const last = out[out.length - 1];
    if (item !== null) {
      if (last?.kind === "list" && lines[i - 1]?.trim() !== "") last.items.push(inlines(item[1]));
      else out.push({ kind: "list", items: [inlines(item[1])] });
    } else if (last?.kind === "paragraph" && lines[i - 1]?.trim() !== "") {
      last.lines.push(inlines(line));
    } else {
      out.push({ kind: "paragraph", lines: [inlines(line)] });
    }
  }
  return out;
}

const TAGS = { bold: "strong", emphasis: "em", code: "code" } as const;

function appendInlines(parent: HTMLElement, parts: Inline[]): void {
  for (const part of parts) {
    if (part.style === "plain") parent.append(part.text);
    else parent.append(Object.assign(document.createElement(TAGS[part.style]), { textContent: part.text }));
  }
}

/** The Markdown as elements, in `parent`. */
export function renderMarkdown(parent: HTMLElement, markdown: string): void {
  for (const block of blocks(markdown)) {
    if (block.kind === "code") {
      const pre = document.createElement("pre");
      pre.append(Object.assign(document.createElement("code"), { textContent: block.text }));
      parent.append(pre);
    } else if (block.kind === "list") {
      const list = document.createElement("ul");
      for (const item of block.items) {
        const li = document.createElement("li");
        appendInlines(li, item);
        list.append(li);
      }
      parent.append(list);
    } else {
      const paragraph = document.createElement("p");
      // A line break inside a paragraph is a space, as in CommonMark.
      block.lines.forEach((line, i) => {
        if (i > 0) paragraph.append(" ");
        appendInlines(paragraph, line);
      });
      parent.append(paragraph);
    }
  }
}
