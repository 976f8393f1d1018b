// Following `cmg view`'s event stream: reconnects with back-off when the stream drops or
// is refused, and says so, so that a page never sits silent on a stale scene.

/** How long to wait before the given retry (0 = the first): 0.5 s, doubling, at most 30 s. */
export function retryDelay(attempt: number): number {
  return Math.min(30_000, 500 * 2 ** Math.min(attempt, 16));
}

/** The part of `EventSource` used here, so that tests can stand in for it. */
export interface Stream {
  addEventListener(type: string, listener: (event: Event) => void): void;
  close(): void;
}

/**
 * Follows `url`: `onScene` gets each `scene` event's data, `say` a line for the user
 * (null when all is well). The browser retries a dropped stream by itself but gives up
 * on a refused one (a 503 when too many pages follow, or no server at all), so the page
 * closes the stream on any error and retries itself, waiting longer each time.
 */
export function follow(
  url: string,
  onScene: (data: string) => void,
  say: (text: string | null) => void,
  open: (url: string) => Stream = (at) => new EventSource(at),
  later: (run: () => void, ms: number) => void = (run, ms) => void setTimeout(run, ms),
): void {
  let attempt = 0;
  const connect = (): void => {
    const events = open(url);
    events.addEventListener("open", () => {
      attempt = 0;
      say(null);
    });
    events.addEventListener("scene", (event) => {
      attempt = 0;
      say(null);
      onScene((event as MessageEvent<string>).data);
    });
    events.addEventListener("error", () => {
      events.close();
      const delay = retryDelay(attempt);
      attempt += 1;
      say(`lost the connection to cmg view; reconnecting in ${Math.ceil(delay / 1000)} s…`);
      later(connect, delay);
    });
  };
  connect();
}
