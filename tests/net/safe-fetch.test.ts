import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import OpenAI from "openai";
import {
  assertUrlAllowed,
  BlockedAddressError,
  blockedAddressReason,
  createGuardedFetch,
  findCause,
  isBlockedAddressError,
  type Resolver,
} from "@/lib/net/safe-fetch";
import { checkUrlStatically } from "@/lib/net/address-policy";

const deny = { allowPrivateNetworks: false };
const allow = { allowPrivateNetworks: true };

let server: http.Server;
let base: string;
let port: number;
const seen: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString("utf8")));
    req.on("end", () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      const url = new URL(req.url!, "http://x");
      if (url.pathname === "/echo") {
        res.writeHead(200, { "content-type": "application/json", "set-cookie": ["a=1", "b=2"] });
        res.end(JSON.stringify({ method: req.method, body, auth: req.headers.authorization ?? null }));
      } else if (url.pathname === "/gzip") {
        res.writeHead(200, { "content-type": "text/plain", "content-encoding": "gzip" });
        res.end(zlib.gzipSync("hello compressed"));
      } else if (url.pathname === "/redirect") {
        res.writeHead(Number(url.searchParams.get("status") ?? 302), { location: url.searchParams.get("to")! });
        res.end();
      } else if (url.pathname === "/slow") {
        setTimeout(() => res.end("late"), 2_000);
      } else if (url.pathname === "/stream") {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.write("data: one\n\n");
        setTimeout(() => res.end("data: two\n\n"), 50);
      } else if (url.pathname === "/v1/chat/completions") {
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
      } else if (url.pathname === "/empty") {
        res.writeHead(204);
        res.end();
      } else {
        res.writeHead(404, { "content-type": "text/plain" });
        res.end("nope");
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe("address policy", () => {
  it.each([
    ["169.254.169.254", "cloud metadata address"],
    ["169.254.1.2", "link-local address"],
    ["100.100.100.200", "cloud metadata address"],
    ["0.0.0.0", "unspecified address"],
    ["0.1.2.3", "unspecified address"],
    ["::", "unspecified address"],
    ["fe80::1", "link-local address"],
    ["fe80::1%eth0", "link-local address"],
    ["febf:ffff::1", "link-local address"],
    ["fd00:ec2::254", "cloud metadata address"],
    ["::ffff:169.254.169.254", "cloud metadata address"],
    ["::ffff:a9fe:a9fe", "cloud metadata address"],
    ["64:ff9b::169.254.169.254", "cloud metadata address"],
    ["::ffff:0.0.0.0", "unspecified address"],
  ])("blocks %s", (address, reason) => {
    expect(blockedAddressReason(address)).toBe(reason);
  });

  it.each(["127.0.0.1", "::1", "10.1.2.3", "172.16.5.4", "192.168.1.10", "8.8.8.8", "2001:db8::1", "fc00::1", "::ffff:127.0.0.1", "fec0::1", "100.100.100.201", "169.253.255.255", "169.255.0.1"])(
    "allows %s",
    (address) => {
      expect(blockedAddressReason(address)).toBeNull();
    },
  );

  it("rejects blocked literals and names in URLs without DNS, including obfuscated IPv4 forms", () => {
    for (const url of [
      "http://169.254.169.254/latest/meta-data/",
      "http://2852039166/", // decimal 169.254.169.254
      "http://0xa9.0xfe.0xa9.0xfe/",
      "http://[fe80::1]:8080/",
      "http://[::ffff:169.254.169.254]/",
      "http://[fd00:ec2::254]/",
      "http://metadata.google.internal/computeMetadata/v1/",
      "http://METADATA.google.internal./",
      "http://0.0.0.0:11434/v1",
      "http://[::]:8000/",
      "http://100.100.100.200/",
    ]) {
      expect(() => checkUrlStatically(url, deny), url).toThrow(BlockedAddressError);
      expect(() => checkUrlStatically(url, allow), url).not.toThrow();
    }
    expect(() => checkUrlStatically("ftp://127.0.0.1/", allow)).toThrow(/Only http and https/);
    expect(() => checkUrlStatically("http://127.0.0.1:11434/v1", deny)).not.toThrow();
    expect(() => checkUrlStatically("http://192.168.0.5/v1", deny)).not.toThrow();
  });

  it("assertUrlAllowed resolves names: localhost (real lookup) is allowed, a name resolving to metadata is not", async () => {
    await expect(assertUrlAllowed("http://localhost:1/v1", deny)).resolves.toBeUndefined();
    await expect(assertUrlAllowed("http://127.0.0.1:1/v1", deny)).resolves.toBeUndefined();
    await expect(assertUrlAllowed("http://169.254.169.254/", deny)).rejects.toThrow(/cloud metadata address/);
    const evil: Resolver = async () => [{ address: "169.254.169.254", family: 4 }];
    const err = await assertUrlAllowed("http://rebind.example.test/", { ...deny, resolver: evil }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BlockedAddressError);
    expect((err as BlockedAddressError).message).toContain("rebind.example.test (169.254.169.254)");
    await expect(assertUrlAllowed("http://rebind.example.test/", { ...allow, resolver: evil })).resolves.toBeUndefined();
  });
});

describe("guarded fetch", () => {
  const fetch = createGuardedFetch(deny);

  it("performs requests to loopback: method, body, headers, multi-value headers, status", async () => {
    const res = await fetch(`${base}/echo`, { method: "POST", body: "hi there", headers: { authorization: "Bearer k", "content-type": "text/plain" } });
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

  it("resolves localhost with a real lookup and connects", async () => {
    const res = await fetch(`http://localhost:${port}/echo`);
    expect(res.status).toBe(200);
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

  it("refuses blocked literal addresses before connecting", async () => {
    for (const url of ["http://169.254.169.254/latest/meta-data/", "http://[fe80::1]/", "http://0.0.0.0:1/", "http://metadata.google.internal/"]) {
      const err = await fetch(url).catch((e: unknown) => e);
      expect(err, url).toBeInstanceOf(TypeError);
      expect(findCause(err, isBlockedAddressError), url).not.toBeNull();
    }
  });

  it("checks every resolved address at connect time (DNS rebinding)", async () => {
    let calls = 0;
    // First answer is harmless (what a pre-check would see), later answers point at metadata.
    const rebinding: Resolver = async () => (calls++ === 0 ? [{ address: "127.0.0.1", family: 4 }] : [{ address: "127.0.0.1", family: 4 }, { address: "169.254.169.254", family: 4 }]);
    const guarded = createGuardedFetch({ ...deny, resolver: rebinding });
    await expect(assertUrlAllowed(`http://rebind.example.test:${port}/echo`, { ...deny, resolver: rebinding })).resolves.toBeUndefined();
    const before = seen.length;
    const err = await guarded(`http://rebind.example.test:${port}/echo`).catch((e: unknown) => e);
    const blocked = findCause(err, isBlockedAddressError);
    expect(blocked?.address).toBe("169.254.169.254");
    expect(seen.length).toBe(before); // nothing reached the server
  });

  it("connects through the injected resolver when every address is allowed", async () => {
    const guarded = createGuardedFetch({ ...deny, resolver: async () => [{ address: "127.0.0.1", family: 4 }] });
    const res = await guarded(`http://my-ollama.internal.test:${port}/echo`);
    expect(res.status).toBe(200);
  });

  it("follows redirects on loopback and re-checks each hop", async () => {
    const ok = await fetch(`${base}/redirect?to=${encodeURIComponent("/echo")}`, { method: "POST", body: "x" });
    expect(ok.status).toBe(200);
    expect(ok.redirected).toBe(true);
    expect(await ok.json()).toMatchObject({ method: "GET", body: "" });

    const kept = await fetch(`${base}/redirect?status=307&to=${encodeURIComponent("/echo")}`, { method: "POST", body: "x" });
    expect(await kept.json()).toMatchObject({ method: "POST", body: "x" });

    const err = await fetch(`${base}/redirect?to=${encodeURIComponent("http://169.254.169.254/latest/meta-data/")}`).catch((e: unknown) => e);
    expect(findCause(err, isBlockedAddressError)?.address).toBe("169.254.169.254");

    const manual = await fetch(`${base}/redirect?to=/echo`, { redirect: "manual" });
    expect(manual.status).toBe(302);
  });

  it("drops the authorization header on cross-origin redirects", async () => {
    const res = await fetch(`${base}/redirect?to=${encodeURIComponent(`http://localhost:${port}/echo`)}`, { headers: { authorization: "Bearer secret" } });
    expect(await res.json()).toMatchObject({ auth: null });
  });

  it("aborts with an AbortError", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const err = await fetch(`${base}/slow`, { signal: controller.signal }).catch((e: unknown) => e);
    expect((err as Error).name).toBe("AbortError");
  });

  it("allows blocked ranges only when private networks are allowed", async () => {
    // No traffic is sent: the allow-policy fetch targets loopback; the deny-policy fetch must not connect.
    const allowed = createGuardedFetch(allow);
    expect((await allowed(`${base}/echo`)).status).toBe(200);
    await expect(assertUrlAllowed("http://169.254.169.254/", allow)).resolves.toBeUndefined();
  });

  it("works as the openai SDK's fetch", async () => {
    const client = new OpenAI({ apiKey: "k", baseURL: `${base}/v1`, fetch, maxRetries: 0 });
    const completion = await client.chat.completions.create({ model: "tiny", messages: [{ role: "user", content: "ping" }], max_tokens: 1 });
    expect(completion.choices[0]?.message.content).toBe("pong");

    const blocked = new OpenAI({ apiKey: "k", baseURL: "http://169.254.169.254/v1", fetch, maxRetries: 0 });
    const err = await blocked.chat.completions.create({ model: "tiny", messages: [{ role: "user", content: "ping" }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.APIConnectionError);
    expect(findCause(err, isBlockedAddressError)).not.toBeNull();
  });
});
