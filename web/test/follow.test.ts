// Unit tests of the page's reconnection to `cmg view`'s event stream.

import { test } from "node:test";
import assert from "node:assert/strict";

import { follow, retryDelay, type Stream } from "../src/follow";

class FakeStream implements Stream {
  readonly listeners = new Map<string, (event: Event) => void>();
  closed = false;
  addEventListener(type: string, listener: (event: Event) => void): void {
    this.listeners.set(type, listener);
  }
  close(): void {
    this.closed = true;
  }
  emit(type: string, data?: string): void {
    this.listeners.get(type)?.({ data } as unknown as Event);
  }
}

test("the delay doubles from half a second up to 30 s", () => {
  assert.deepEqual([0, 1, 2, 3].map(retryDelay), [500, 1000, 2000, 4000]);
  assert.equal(retryDelay(10), 30_000);
  assert.equal(retryDelay(1000), 30_000);
});

test("a refused or dropped stream is reopened later, and the page says so", () => {
  const streams: FakeStream[] = [];
  const waits: number[] = [];
  const pending: (() => void)[] = [];
  const said: (string | null)[] = [];
  const scenes: string[] = [];
  follow(
    "events",
    (data) => scenes.push(data),
    (text) => said.push(text),
    () => {
      const stream = new FakeStream();
      streams.push(stream);
      return stream;
    },
    (run, ms) => {
      waits.push(ms);
      pending.push(run);
    },
  );
  assert.equal(streams.length, 1);
  streams[0].emit("error");
  streams[0].emit("error");
  assert.ok(streams[0].closed, "the browser's own retry is stopped");
  assert.match(said.at(-1) ?? "", /reconnecting/);
  pending.shift()?.();
  streams[1].emit("error");
  pending.shift()?.();
  assert.equal(streams.length, 3);
  assert.deepEqual(waits.slice(0, 1), [500]);
  assert.ok(waits[waits.length - 1] > waits[0], "waits grow");
  streams[2].emit("scene", "{}");
  assert.deepEqual(scenes, ["{}"]);
  assert.equal(said.at(-1), null, "the message goes once a scene comes");
  streams[2].emit("error");
  assert.equal(waits.at(-1), 500, "a working stream starts the back-off again");
});
