import http from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import zlib from "node:zlib";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import OpenAI from "openai";
import { LlmClient } from "@/lib/llm/client";
import { LlmError } from "@/lib/llm/errors";
import {
  assertUrlAllowed,
  BlockedAddressError,
  createGuardedFetch,
  findCause,
  isBlockedAddressError,
  isRedirectRefusedError,
  isResponseTooLargeError,
  nextRedirectHop,
  RedirectRefusedError,
  type GuardedFetchOptions,
  type Resolver,
} from "@/lib/net/safe-fetch";
import { loopbackConnector } from "../helpers/loopback";

/**
 * Every guarded fetch in this file connects through this connector: it records each target and
 * throws on anything that is not loopback, so a regressed guard fails the test instead of
 * ever opening a connection to 169.254.169.254 or anywhere else off this machine.
 */
const { connected, connect: loopbackOnly } = loopbackConnector();
const deny: GuardedFetchOptions = { allowPrivateNetworks: false, allowLoopback: true, connect: loopbackOnly };
const allow: GuardedFetchOptions = { allowPrivateNetworks: true, allowLoopback: true, connect: loopbackOnly };

type Seen = { port: number; method: string; url: string; headers: http.IncomingHttpHeaders; body: string };
const seen: Seen[] = [];
const MB = 1024 * 1024;

/** Gzips `megabytes` of zeros as a stream (never holds the inflated body). */
async function zeros(megabytes: number, compress: () => zlib.Gzip | zlib.BrotliCompress): Promise<Buffer> {
  const chunk = Buffer.alloc(MB);
  let left = megabytes;
  const src = new Readable({ read: () => void src.push(left-- > 0 ? chunk : null) });
  const out: Buffer[] = [];
  for await (const c of src.pipe(compress())) out.push(c as Buffer);
  return Buffer.concat(out);
}

let gzipBomb: Buffer;
let brotliBomb: Buffer;
const closedSockets: string[] = [];

function handler(req: http.IncomingMessage, res: http.ServerResponse) {
  let body = "";
  req.on("data", (c: Buffer) => (body += c.toString("utf8")));
  req.on("end", () => {
    const port = (req.socket.address() as AddressInfo).port;
    seen.push({ port, method: req.method!, url: req.url!, headers: req.headers, body });
    const url = new URL(req.url!, "http://x");
    const p = url.pathname;
    if (p === "/echo") {
      res.writeHead(200, { "content-type": "application/json", "set-cookie": ["a=1", "b=2"] });
      res.end(JSON.stringify({ method: req.method, body, auth: req.headers.authorization ?? null }));
    } else if (p === "/gzip") {
      res.writeHead(200, { "content-type": "text/plain", "content-encoding": "gzip" });
      res.end(zlib.gzipSync("hello compressed"));
    } else if (p === "/redirect") {
      res.writeHead(Number(url.searchParams.get("status") ?? 302), { location: url.searchParams.get("to")! });
      res.end();
    } else if (p === "/hops") {
      const n = Number(url.searchParams.get("n"));
      res.writeHead(302, { location: n > 1 ? `/hops?n=${n - 1}` : "/echo" });
      res.end();
    } else if (p === "/slow") {
      setTimeout(() => res.end("late"), 2_000);
    } else if (p === "/stream") {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write("data: one\n\n");
      setTimeout(() => res.end("data: two\n\n"), 50);
    } else if (p === "/v1/chat/completions") {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          id: "c1",
          object: "chat.completion",
          created: 0,
          model: "tiny",
          choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: "pong" } }],
        }),
      );
    } else if (p === "/empty") {
      res.writeHead(204);
      res.end();
    } else if (p === "/gzip-bomb") {
      res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
      res.end(gzipBomb);
    } else if (p === "/br-bomb") {
      res.writeHead(200, { "content-type": "application/json", "content-encoding": "br" });
      res.end(brotliBomb);
    } else if (p === "/big" || p.startsWith("/big-sdk/")) {
      // 6 MB of plain text; `declared` sends a content-length, otherwise chunked.
      const size = Number(url.searchParams.get("mb") ?? 6) * MB;
      res.writeHead(200, url.searchParams.has("declared") ? { "content-length": String(size) } : {});
      const chunk = Buffer.alloc(64 * 1024, "x");
      let sent = 0;
      const pump = () => {
        while (sent < size && !res.destroyed) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", pump);
        }
        res.end();
      };
      pump();
    } else if (p === "/trickle") {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"reply": "');
      const timer = setInterval(() => res.write("a"), 50);
      res.on("close", () => {
        clearInterval(timer);
        closedSockets.push(p);
      });
    } else {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("nope");
    }
  });
}

let server: http.Server;
let other: http.Server;
let base: string;
let port: number;
let otherPort: number;

beforeAll(async () => {
  [gzipBomb, brotliBomb] = await Promise.all([
    zeros(64, () => zlib.createGzip({ level: 9 })),
    zeros(64, () => zlib.createBrotliCompress()),
  ]);
  server = http.createServer(handler);
  other = http.createServer(handler);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  await new Promise<void>((r) => other.listen(0, "127.0.0.1", r));
  port = (server.address() as AddressInfo).port;
  otherPort = (other.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});

beforeEach(() => {
  connected.length = 0;
});

afterAll(async () => {
  for (const s of [server, other]) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

const failure = async (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e,
  );
const metadataHits = () => connected.filter((t) => t.host !== "127.0.0.1" && t.host !== "::1");

describe("assertUrlAllowed", () => {
  it("resolves names: localhost is allowed, a name resolving to metadata is refused even with private networks allowed", async () => {
    await expect(assertUrlAllowed("http://localhost:1/v1", deny)).resolves.toBeUndefined();
    await expect(assertUrlAllowed("http://127.0.0.1:1/v1", deny)).resolves.toBeUndefined();
    await expect(assertUrlAllowed("http://169.254.169.254/", allow)).rejects.toThrow(/cloud metadata address/);
    const evil: Resolver = async () => [{ address: "169.254.169.254", family: 4 }];
    const err = await failure(assertUrlAllowed("http://rebind.example.test/", { ...allow, resolver: evil }));
    expect(err).toBeInstanceOf(BlockedAddressError);
    expect((err as BlockedAddressError).message).toContain("rebind.example.test (169.254.169.254)");
    const internal: Resolver = async () => [{ address: "10.1.2.3", family: 4 }];
    await expect(assertUrlAllowed("http://intranet.example.test/", { ...deny, resolver: internal })).rejects.toThrow(
      /ASSAY_ALLOW_PRIVATE_NETWORKS/,
    );
    await expect(assertUrlAllowed("http://intranet.example.test/", { ...allow, resolver: internal })).resolves.toBeUndefined();
  });
});

describe("guarded fetch", () => {
  const fetch = createGuardedFetch(deny);

  it("performs requests to loopback: method, body, headers, multi-value headers, status", async () => {
    const res = await fetch(`${base}/echo`, {
      method: "POST",
      body: "hi there",
      headers: { authorization: "Bearer k", "content-type": "text/plain" },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.headers.getSetCookie()).toEqual(["a=1", "b=2"]);
    expect(await res.json()).toEqual({ method: "POST", body: "hi there", auth: "Bearer k" });
    const missing = await fetch(`${base}/missing`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toBe("nope");
    const empty = await fetch(`${base}/empty`);
    expect(empty.status).toBe(204);
    expect(empty.body).toBeNull();
  });

  it("resolves localhost with a real lookup and connects to the address it checked", async () => {
    const res = await fetch(`http://localhost:${port}/echo`);
    expect(res.status).toBe(200);
    expect(connected.at(-1)).toMatchObject({ hostname: "localhost", port });
  });

  it("decompresses gzip bodies and streams chunked bodies", async () => {
    expect(await (await fetch(`${base}/gzip`)).text()).toBe("hello compressed");
    const res = await fetch(`${base}/stream`);
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe("data: one\n\n");
    let rest = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      rest += new TextDecoder().decode(value);
    }
    expect(rest).toBe("data: two\n\n");
  });

  it("refuses metadata literals before connecting, whatever the policy", async () => {
    const permissive = createGuardedFetch(allow);
    for (const url of [
      "http://169.254.169.254/latest/meta-data/",
      "http://[fe80::1]/",
      "http://0.0.0.0:1/",
      "http://metadata.google.internal/",
      "http://0xa9fea9fe/",
      "http://[::ffff:a9fe:a9fe]/",
    ]) {
      const err = await failure(permissive(url));
      expect(err, url).toBeInstanceOf(TypeError);
      expect(findCause(err, isBlockedAddressError), url).not.toBeNull();
    }
    expect(connected).toEqual([]);
  });

  it("refuses a host the resolver maps to metadata before connecting (resolver hook)", async () => {
    for (const address of ["169.254.169.254", "fd00:ec2::254", "::ffff:169.254.169.254", "64:ff9b::a9fe:a9fe"]) {
      const guarded = createGuardedFetch({ ...allow, resolver: async () => [{ address, family: address.includes(":") ? 6 : 4 }] });
      const err = await failure(guarded(`http://innocent.example.test:${port}/echo`));
      expect(findCause(err, isBlockedAddressError)?.address, address).toBe(address);
    }
    expect(connected).toEqual([]);
  });

  it("hands the connector exactly the address it checked (the connector is the last gate)", async () => {
    // A public answer passes the policy; the test connector then refuses it, so nothing leaves the machine.
    const guarded = createGuardedFetch({ ...deny, resolver: async () => [{ address: "203.0.114.7", family: 4 }] });
    const err = await failure(guarded("http://public.example.test/"));
    expect(String((err as Error).cause)).toContain("test connector: refusing to connect to non-loopback 203.0.114.7");
    expect(connected).toEqual([
      { host: "203.0.114.7", addresses: [{ address: "203.0.114.7", family: 4 }], port: 80, hostname: "public.example.test", tls: false },
    ]);
  });

  it("checks every resolved address at connect time (DNS rebinding)", async () => {
    let calls = 0;
    // First answer is harmless (what a pre-check would see), later answers point at metadata.
    const rebinding: Resolver = async () =>
      calls++ === 0
        ? [{ address: "127.0.0.1", family: 4 }]
        : [
            { address: "127.0.0.1", family: 4 },
            { address: "169.254.169.254", family: 4 },
          ];
    const guarded = createGuardedFetch({ ...deny, resolver: rebinding });
    await expect(assertUrlAllowed(`http://rebind.example.test:${port}/echo`, { ...deny, resolver: rebinding })).resolves.toBeUndefined();
    const before = seen.length;
    const err = await failure(guarded(`http://rebind.example.test:${port}/echo`));
    expect(findCause(err, isBlockedAddressError)?.address).toBe("169.254.169.254");
    expect(seen.length).toBe(before); // nothing reached the server
    expect(connected).toEqual([]);
  });

  it("refuses loopback when the instance turns it off", async () => {
    const noLoopback = createGuardedFetch({ ...deny, allowLoopback: false });
    const err = await failure(noLoopback(`${base}/echo`));
    expect(findCause(err, isBlockedAddressError)?.message).toMatch(/ASSAY_ALLOW_LOOPBACK=false/);
    const viaName = await failure(
      createGuardedFetch({ ...deny, allowLoopback: false, resolver: async () => [{ address: "127.0.0.1", family: 4 }] })(
        `http://ollama.example.test:${port}/echo`,
      ),
    );
    expect(findCause(viaName, isBlockedAddressError)?.address).toBe("127.0.0.1");
    expect(connected).toEqual([]);
  });

  it("connects through the injected resolver when every address is allowed", async () => {
    const guarded = createGuardedFetch({ ...deny, resolver: async () => [{ address: "127.0.0.1", family: 4 }] });
    const res = await guarded(`http://my-ollama.internal.test:${port}/echo`);
    expect(res.status).toBe(200);
  });

  it("aborts with an AbortError", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const err = await failure(fetch(`${base}/slow`, { signal: controller.signal }));
    expect((err as Error).name).toBe("AbortError");
  });

  it("works as the openai SDK's fetch", async () => {
    const client = new OpenAI({ apiKey: "k", baseURL: `${base}/v1`, fetch, maxRetries: 0 });
    const completion = await client.chat.completions.create({
      model: "tiny",
      messages: [{ role: "user", content: "ping" }],
      max_tokens: 1,
    });
    expect(completion.choices[0]?.message.content).toBe("pong");

    const blocked = new OpenAI({ apiKey: "k", baseURL: "http://169.254.169.254/v1", fetch, maxRetries: 0 });
    const err = await failure(blocked.chat.completions.create({ model: "tiny", messages: [{ role: "user", content: "ping" }] }));
    expect(err).toBeInstanceOf(OpenAI.APIConnectionError);
    expect(findCause(err, isBlockedAddressError)).not.toBeNull();
  });
});

describe("redirects", () => {
  const fetch = createGuardedFetch(deny);

  it("follows them on loopback (303/302 POST → GET, 307 keeps method and body)", async () => {
    const ok = await fetch(`${base}/redirect?to=${encodeURIComponent("/echo")}`, { method: "POST", body: "x" });
    expect(ok.status).toBe(200);
    expect(ok.redirected).toBe(true);
    expect(await ok.json()).toMatchObject({ method: "GET", body: "" });
    const kept = await fetch(`${base}/redirect?status=307&to=${encodeURIComponent("/echo")}`, { method: "POST", body: "x" });
    expect(await kept.json()).toMatchObject({ method: "POST", body: "x" });
    const manual = await fetch(`${base}/redirect?to=/echo`, { redirect: "manual" });
    expect(manual.status).toBe(302);
  });

  it("follows at most 5: five hops arrive, six fail with a clear error", async () => {
    expect((await fetch(`${base}/hops?n=5`)).status).toBe(200);
    const before = seen.length;
    const err = await failure(fetch(`${base}/hops?n=6`));
    expect(findCause(err, isRedirectRefusedError)?.message).toMatch(/Too many redirects \(more than 5\)/);
    expect(seen.length - before).toBe(6); // the first request and five followed hops; the sixth is not followed
  });

  it("re-checks every hop: a redirect to a metadata address is refused before any connection", async () => {
    for (const to of [
      "http://169.254.169.254/latest/meta-data/",
      "http://[::ffff:169.254.169.254]/",
      "http://2852039166/",
      "http://metadata.google.internal./",
    ]) {
      const err = await failure(createGuardedFetch(allow)(`${base}/redirect?to=${encodeURIComponent(to)}`));
      expect(findCause(err, isBlockedAddressError), to).not.toBeNull();
    }
    // A hop to a name that resolves to metadata is refused at connect time.
    const evil = createGuardedFetch({
      ...allow,
      resolver: async (h) => [{ address: h === "localhost" ? "127.0.0.1" : "169.254.169.254", family: 4 }],
    });
    const err = await failure(evil(`http://localhost:${port}/redirect?to=${encodeURIComponent("http://evil.example.test/")}`));
    expect(findCause(err, isBlockedAddressError)?.address).toBe("169.254.169.254");
    expect(metadataHits()).toEqual([]);
  });

  it("drops every header the caller set on a cross-origin hop, keeps them on the same origin", async () => {
    const secrets = {
      authorization: "Bearer secret",
      "api-key": "azure-key",
      "x-api-key": "anthropic-key",
      "x-agent-key": "custom",
      cookie: "s=1",
    };
    const cross = `http://localhost:${otherPort}/echo`;
    const res = await fetch(`${base}/redirect?to=${encodeURIComponent(cross)}`, { headers: { ...secrets, accept: "application/json" } });
    expect(res.status).toBe(200);
    const hop = seen.at(-1)!;
    expect(hop.port).toBe(otherPort);
    for (const name of Object.keys(secrets)) expect(hop.headers[name], name).toBeUndefined();
    expect(hop.headers.accept).toBe("application/json");

    await fetch(`${base}/redirect?to=/echo`, { headers: secrets });
    const same = seen.at(-1)!;
    expect(same.port).toBe(port);
    expect(same.headers).toMatchObject(secrets);
  });

  it("refuses an https → http downgrade (redirect rule, no server needed)", () => {
    const hop = {
      url: new URL("https://api.example.test/v1/chat"),
      method: "POST",
      body: Buffer.from("{}"),
      headers: new Headers({ authorization: "Bearer k" }),
    };
    expect(() => nextRedirectHop(hop, 302, "http://api.example.test/v1/chat", 0)).toThrow(RedirectRefusedError);
    expect(() => nextRedirectHop(hop, 307, "http://api.example.test/v1/chat", 0)).toThrow(/from https to http/);
    expect(nextRedirectHop(hop, 307, "/v2/chat", 0)).toMatchObject({ method: "POST", url: new URL("https://api.example.test/v2/chat") });
    expect(nextRedirectHop({ ...hop, url: new URL("http://a.example.test/") }, 301, "https://a.example.test/", 0).url.protocol).toBe(
      "https:",
    );
    expect(() => nextRedirectHop(hop, 302, "/again", 5)).toThrow(/Too many redirects/);
    const crossHeaders = nextRedirectHop(hop, 307, "https://other.example.test/", 0).headers;
    expect(crossHeaders.has("authorization")).toBe(false);
  });
});

describe("response size and time caps", () => {
  const fetch = createGuardedFetch(deny);
  const small = createGuardedFetch({ ...deny, maxResponseBytes: 1024 });

  it.each(["/gzip-bomb", "/br-bomb", "/big", "/big?declared"])("%s fails at 5 MB after decompression", async (path) => {
    const res = await fetch(`${base}${path}`);
    const started = performance.now();
    const err = await failure(res.text());
    expect(findCause(err, isResponseTooLargeError)?.message, path).toBe(
      "The response is larger than 5 MB (ASSAY_MAX_RESPONSE_BYTES); it was not read further",
    );
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it("passes bodies under the cap and honours a smaller one", async () => {
    expect((await (await fetch(`${base}/big?mb=4`)).text()).length).toBe(4 * MB);
    expect(await (await small(`${base}/gzip`)).text()).toBe("hello compressed");
    const err = await failure((await small(`${base}/big?mb=1`)).arrayBuffer());
    expect(findCause(err, isResponseTooLargeError)?.message).toMatch(/larger than 1 KB/);
  });

  it("the openai SDK's call fails on an oversized body", async () => {
    const client = new OpenAI({ apiKey: "k", baseURL: `${base}/big-sdk/v1`, fetch: small, maxRetries: 0 });
    const err = await failure(client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "hi" }] }));
    expect(findCause(err, isResponseTooLargeError)?.message).toMatch(/larger than 1 KB/);
  });

  it("through LlmClient: one attempt, not retried, with the clear message", async () => {
    const endpoint = {
      id: "cap-test",
      baseUrl: `${base}/big-sdk/v1`,
      apiKey: null,
      model: "m",
      embeddingModel: null,
      temperature: null,
      maxTokens: null,
    };
    const err = await failure(
      new LlmClient(endpoint, { fetch: small }).chat({ messages: [{ role: "user", content: "hi" }] }, { purpose: "agent" }),
    );
    expect(err).toBeInstanceOf(LlmError);
    expect(err).toMatchObject({ type: "invalid_response", attempts: 1 });
    expect((err as LlmError).message).toBe("The response is larger than 1 KB (ASSAY_MAX_RESPONSE_BYTES); it was not read further");
  });

  it("a trickling body is cut off by the call's signal, and the connection is closed", async () => {
    const started = performance.now();
    const res = await fetch(`${base}/trickle`, { signal: AbortSignal.timeout(300) });
    const err = await failure(res.text());
    expect(["AbortError", "TimeoutError"]).toContain((err as Error).name);
    expect(performance.now() - started).toBeLessThan(2_000);
    await expect.poll(() => closedSockets.includes("/trickle")).toBe(true);
  });
});
