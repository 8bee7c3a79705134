// The production server keeps an idle keep-alive connection open for 65 s, not Node's 5 s: a
// client (a reverse proxy, a browser, a CI script) that sends its next request on a connection
// the server is closing at that moment gets ECONNRESET — once in the e2e suite's own API calls.
import http from "node:http";
import { expect, test } from "@playwright/test";

/** GET `path` over `agent`; resolves with the status and whether the request went on a reused socket. */
function get(agent: http.Agent, url: URL): Promise<{ status: number; reused: boolean }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, reused: req.reusedSocket }));
    });
    req.on("error", reject);
  });
}

test("an idle keep-alive connection is still open 6 s later", async ({ baseURL }) => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const url = new URL("/api/health", baseURL);
    expect(await get(agent, url)).toEqual({ status: 200, reused: false });
    await new Promise((r) => setTimeout(r, 6_000));
    // With Node's default (5 s) the server would have closed it and this request needs a new socket.
    expect(await get(agent, url)).toEqual({ status: 200, reused: true });
  } finally {
    agent.destroy();
  }
});
