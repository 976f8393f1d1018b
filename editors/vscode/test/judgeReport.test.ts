// The judge command's pure parts: the JSON of `cmg judge --json` read into a result, and
// the report page.

import * as assert from "node:assert/strict";
import { test } from "node:test";

import {
  headline,
  JUDGED_LANGUAGES,
  judgeArguments,
  parseJudgeOutput,
  reportHtml,
  resultOfWorker,
  webRefusal,
} from "../src/judgeReport";

// What `cmg judge --json` printed for tests/judge/cat_into_hole.js (docs/json.md).
const WRONG = JSON.stringify({
  verdict: "wrong-answer",
  graph: [[2, 3], [2, 4], [0, 1], [0, 4], [1, 3]],
  expected: 1,
  got: 0,
  moves: 5,
  cmg: "0 -- {2 3}\n1 -- {2 4}\n3 -- 4\nexpect mouse\n",
  report: "wrong answer on a graph of 5 nodes and 5 edges\n  got: <0>\n",
  interrupted: false,
  seconds: 0.3,
});

test("a finding is read with its graph, .cmg file and report", () => {
  const result = parseJudgeOutput(WRONG);
  assert.ok(!("error" in result));
  assert.equal(result.verdict, "wrong-answer");
  assert.equal(result.graph?.length, 5);
  assert.match(result.cmg ?? "", /expect mouse/);
  assert.equal(headline(result), "Wrong answer on a graph of 5 nodes");
});

test("no counterexample has no graph and nothing to open", () => {
  const result = parseJudgeOutput(JSON.stringify({ verdict: "no-counterexample", interrupted: true, cmg: null, report: "no counterexample" }));
  assert.ok(!("error" in result));
  assert.equal(result.graph, undefined);
  assert.equal(headline(result), "No counterexample found (stopped early)");
  assert.doesNotMatch(reportHtml("t", result, "n"), /data-judge-open/);
});

test("the judge's own error (exit 2) and output that is not JSON are errors", () => {
  assert.deepEqual(parseJudgeOutput('{"error": "the build failed: x.py:3"}'), { error: "the build failed: x.py:3" });
  assert.match((parseJudgeOutput("") as { error: string }).error, /printed nothing/);
  assert.match((parseJudgeOutput("Segmentation fault") as { error: string }).error, /no JSON: Segmentation fault/);
  assert.match((parseJudgeOutput('{"verdict": "maybe"}') as { error: string }).error, /no verdict/);
});

test("the report page escapes the report and offers the counterexample", () => {
  const result = parseJudgeOutput(WRONG);
  assert.ok(!("error" in result));
  const html = reportHtml("Judge: a<b>.py", result, "abc");
  assert.match(html, /data-verdict="wrong-answer"/);
  assert.match(html, /got: &#60;0&#62;/);
  assert.doesNotMatch(html, /<0>/);
  assert.match(html, /<title>Judge: a&#60;b&#62;.py<\/title>/);
  assert.match(html, /data-judge-open/);
  assert.match(html, /script-src 'nonce-abc'/);
});

test("every language of the command's menus is judged, as the file extension cmg judge reads", () => {
  assert.deepEqual(Object.keys(JUDGED_LANGUAGES).sort(), ["c", "cpp", "go", "java", "javascript", "python", "rust"]);
  assert.deepEqual(judgeArguments("/tmp/s.py", 30), ["judge", "/tmp/s.py", "--json", "--color", "never", "--seconds", "30"]);
});

test("the web judge's worker's result reads as the CLI's JSON, the report and .cmg file beside it", () => {
  const { cmg, report, ...json } = JSON.parse(WRONG) as Record<string, unknown>;
  const result = resultOfWorker({ report: json, text: String(report), cmg: String(cmg) });
  assert.deepEqual(result, parseJudgeOutput(WRONG));
  const none = resultOfWorker({ report: { verdict: "no-counterexample", interrupted: false }, text: "no counterexample", cmg: null });
  assert.ok(!("error" in none));
  assert.equal(none.report, "no counterexample");
  assert.equal(none.cmg, null);
  assert.match((resultOfWorker({ report: {}, text: "", cmg: null }) as { error: string }).error, /no verdict/);
});

test("VS Code for the Web judges JavaScript and Python and says what every other language needs", () => {
  assert.equal(webRefusal("javascript"), null);
  assert.equal(webRefusal("python"), null);
  for (const [id, name] of [["java", "Java"], ["cpp", "C\\+\\+"], ["rust", "Rust"], ["go", "Go"], ["c", "C"]] as const) {
    assert.match(webRefusal(id) ?? "", new RegExp(`judging ${name} needs the desktop VS Code`));
  }
});
