/**
 * The S3-compatible file store against a tiny in-memory S3 (path-style PUT/GET/HEAD/DELETE object
 * on 127.0.0.1), driven through the file API: upload → download → delete. Every socket the test
 * opens is recorded, so the SDK provably talks to nothing but loopback (no instance metadata
 * endpoint, no AWS).
 */
import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { useFileStorage } from "@/lib/files/storage/select";
import { FileStoreConfigError, parseS3Spec, s3Storage } from "@/lib/files/storage/s3";
import { NotFoundError } from "@/lib/errors";
import * as filesRoute from "@/app/api/v1/files/route";
import * as fileRoute from "@/app/api/v1/files/[id]/route";
import * as contentRoute from "@/app/api/v1/files/[id]/content/route";
import { db } from "@/lib/db";
import { makeApiKey, makeWorkspace } from "../helpers/factories";
import { makePdf } from "./fixtures";

const objects = new Map<string, Buffer>();
const requests: { method: string; path: string; authorized: boolean }[] = [];
const connections: string[] = [];

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    requests.push({
      method: req.method ?? "",
      path,
      authorized: /^AWS4-HMAC-SHA256 Credential=test-key\//.test(req.headers.authorization ?? ""),
    });
    const notFound = () => {
      res.writeHead(404, { "content-type": "application/xml" });
      res.end(req.method === "HEAD" ? undefined : `<?xml version="1.0"?><Error><Code>NoSuchKey</Code><Message>missing</Message></Error>`);
    };
    switch (req.method) {
      case "PUT":
        objects.set(path, Buffer.concat(chunks));
        res.writeHead(200, { etag: '"x"' });
        return res.end();
      case "GET":
      case "HEAD": {
        const body = objects.get(path);
        if (!body) return notFound();
        res.writeHead(200, { "content-type": "application/octet-stream", "content-length": body.byteLength });
        return res.end(req.method === "GET" ? body : undefined);
      }
      case "DELETE":
        objects.delete(path);
        res.writeHead(204);
        return res.end();
      default:
        res.writeHead(405);
        res.end();
    }
  });
});

const originalConnect = net.Socket.prototype.connect;
let endpoint: string;

beforeAll(async () => {
  // Records the host of every TCP connection from here on (the SDK's, and the database's).
  net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
    const first = args[0] as { host?: string; path?: string } | number | string;
    connections.push(
      typeof first === "object" && first !== null ? (first.path ?? first.host ?? "localhost") : String(args[1] ?? "localhost"),
    );
    return (originalConnect as (...a: unknown[]) => net.Socket).apply(this, args);
  } as typeof net.Socket.prototype.connect;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  net.Socket.prototype.connect = originalConnect;
  useFileStorage(null);
  await new Promise((resolve) => server.close(resolve));
});

const creds = { accessKeyId: "test-key", secretAccessKey: "test-secret" };

describe("s3Storage", () => {
  it("stores uploads in the bucket under the prefix: upload → download → delete through the API", async () => {
    useFileStorage(
      s3Storage(`s3://assay-files/team/a?endpoint=${encodeURIComponent(endpoint)}&region=eu-west-1&force_path_style=true`, creds),
    );
    const { workspace } = await makeWorkspace("owner");
    const key = await makeApiKey(workspace.id, "editor");
    const pdf = await makePdf(["Stored in S3"]);

    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(pdf)]), "s3.pdf");
    const upRes = await filesRoute.POST(
      new NextRequest(new URL("/api/v1/files", "http://localhost"), {
        method: "POST",
        headers: { authorization: `Bearer ${key}` },
        body: form,
      }),
      { params: Promise.resolve({}) },
    );
    expect(upRes.status).toBe(201);
    const file = (await upRes.json()) as { id: string; sha256: string; type: string };
    expect(file.type).toBe("pdf");
    const objectPath = `/assay-files/team/a/${workspace.id}/${file.sha256}`;
    expect(objects.get(objectPath)?.equals(pdf)).toBe(true);
    // Nothing in PostgreSQL's blob table: the bytes live in the bucket.
    expect(await db.fileBlob.count({ where: { workspaceId: workspace.id } })).toBe(0);

    const auth = { authorization: `Bearer ${key}` };
    const dl = await contentRoute.GET(new NextRequest(new URL(`/api/v1/files/${file.id}/content`, "http://localhost"), { headers: auth }), {
      params: Promise.resolve({ id: file.id }),
    });
    expect(dl.status).toBe(200);
    expect(Buffer.from(await dl.arrayBuffer()).equals(pdf)).toBe(true);

    const del = await fileRoute.DELETE(
      new NextRequest(new URL(`/api/v1/files/${file.id}`, "http://localhost"), { method: "DELETE", headers: auth }),
      { params: Promise.resolve({ id: file.id }) },
    );
    expect(del.status).toBe(204);
    expect(objects.has(objectPath)).toBe(false);
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([`PUT ${objectPath}`, `GET ${objectPath}`, `DELETE ${objectPath}`]);
    expect(requests.every((r) => r.authorized)).toBe(true);
  });

  it("maps a missing object to NotFoundError and deletes missing objects quietly", async () => {
    const storage = s3Storage(`s3://assay-files?endpoint=${encodeURIComponent(endpoint)}&force_path_style=true`, creds);
    await expect(storage.get("w", "w/absent")).rejects.toBeInstanceOf(NotFoundError);
    await expect(storage.delete("w", "w/absent")).resolves.toBeUndefined();
    await storage.put("w", "w/k", Buffer.from("bytes"));
    expect(objects.get("/assay-files/w/k")?.toString()).toBe("bytes");
    expect((await storage.get("w", "w/k")).toString()).toBe("bytes");
  });

  it("opened connections to loopback only (never the instance metadata endpoint)", () => {
    expect(connections.length).toBeGreaterThan(0);
    for (const host of connections) expect(host, host).toMatch(/^(127\.0\.0\.1|::1|localhost|\/.*)$/);
    expect(connections).not.toContain("169.254.169.254");
  });

  it("needs credentials from the environment and refuses secrets in the URL", () => {
    const spec = `s3://bucket-a?endpoint=${encodeURIComponent(endpoint)}`;
    expect(() => s3Storage(spec, {})).toThrow(/AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY/);
    expect(() => s3Storage(`${spec}&secret_access_key=shh`, creds)).toThrow(FileStoreConfigError);
    expect(() => s3Storage(`${spec}&access_key_id=AKIA`, creds)).toThrow(/keep secrets out of URLs/);
    expect(() => s3Storage("s3://user:pass@bucket-a", creds)).toThrow(/credentials do not belong in the URL/);
    expect(() => s3Storage(`${spec}&colour=blue`, creds)).toThrow(/unknown parameter "colour"/);
    expect(() => s3Storage("s3://bucket-a?endpoint=ftp://x", creds)).toThrow(/endpoint must be an http/);
  });

  it("parses bucket, prefix, endpoint, region and path style", () => {
    expect(parseS3Spec("s3://my-bucket/a/b/?endpoint=http://minio:9000&region=eu-central-1&force_path_style=true")).toEqual({
      bucket: "my-bucket",
      prefix: "a/b",
      endpoint: "http://minio:9000",
      region: "eu-central-1",
      forcePathStyle: true,
    });
    expect(parseS3Spec("s3://my-bucket")).toEqual({
      bucket: "my-bucket",
      prefix: "",
      endpoint: undefined,
      region: "us-east-1",
      forcePathStyle: false,
    });
  });
});
