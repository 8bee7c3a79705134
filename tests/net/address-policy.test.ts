import { describe, expect, it } from "vitest";
import { BlockedAddressError, checkUrlStatically, classifyAddress, refusal, type NetworkPolicy } from "@/lib/net/address-policy";

// No network here: every check below is on the policy itself (URL parsing and address ranges).
const everything: NetworkPolicy = { allowPrivateNetworks: true, allowLoopback: true };
const defaults: NetworkPolicy = { allowPrivateNetworks: false, allowLoopback: true };
const strict: NetworkPolicy = { allowPrivateNetworks: false, allowLoopback: false };

/** Link-local and metadata, spelled every way a URL can spell them. */
const METADATA_URLS = [
  "http://169.254.169.254/latest/meta-data/",
  "http://2852039166/", // decimal
  "http://0xa9fea9fe/", // hex
  "http://0xA9.0xFE.0xA9.0xFE/", // hex per octet
  "http://0251.0376.0251.0376/", // octal
  "http://169.254.43518/", // a.b.c short form
  "http://169.16689662/", // a.b short form
  "http://169.254.169.254./", // trailing dot
  "http://169.254.1.2:8080/", // anywhere in 169.254.0.0/16
  "http://[::ffff:169.254.169.254]/", // IPv4-mapped, dotted
  "http://[::ffff:a9fe:a9fe]/", // IPv4-mapped, hex
  "http://[::a9fe:a9fe]/", // IPv4-compatible
  "http://[::ffff:0:a9fe:a9fe]/", // IPv4-translated (RFC 6145)
  "http://[2002:a9fe:a9fe::]/", // 6to4
  "http://[2002:a9fe:a9fe:1::1]/",
  "http://[64:ff9b::a9fe:a9fe]/", // NAT64 well-known prefix
  "http://[64:ff9b::169.254.169.254]/",
  "http://[64:ff9b:1::a9fe:a9fe]/", // NAT64 local-use prefix
  "http://[64:ff9b:1:abcd::1]/",
  "http://[2001:0:4136:e378:8000:63bf:5601:5601]/", // Teredo, client 169.254.169.254 (inverted)
  "http://[fe80::1]/", // IPv6 link-local
  "http://[febf:ffff::1]/",
  "http://[fd00:ec2::254]/", // AWS metadata over IPv6
  "http://[FD00:EC2:0:0:0:0:0:254]/",
  "http://metadata.google.internal/computeMetadata/v1/",
  "http://METADATA.Google.Internal./",
  "http://metadata.google.internal.:80/",
  "http://metadata/",
  "http://metadata./",
  "http://192.0.0.192/", // 192.0.0.0/24 (Oracle Cloud metadata lives here)
  "http://192.0.0.8/",
  "http://100.100.100.200/", // Alibaba Cloud metadata
  "http://0.0.0.0:11434/", // reaches this host
  "http://0/",
  "http://[::]/",
  "https://169.254.169.254/",
];

describe("link-local and cloud metadata: always refused", () => {
  it.each(METADATA_URLS)("%s is refused under every policy", (url) => {
    for (const policy of [everything, defaults, strict]) {
      expect(() => checkUrlStatically(url, policy), JSON.stringify(policy)).toThrow(BlockedAddressError);
    }
  });

  it.each([
    "169.254.169.254",
    "169.254.0.1",
    "0xa9fea9fe",
    "2852039166",
    "0251.0376.0251.0376",
    "169.254.43518",
    "fe80::1%eth0",
    "::ffff:169.254.169.254",
    "::a9fe:a9fe",
    "2002:a9fe:a9fe::",
    "64:ff9b::a9fe:a9fe",
    "64:ff9b:1::a9fe:a9fe",
    "fd00:ec2::254",
    "192.0.0.1",
    "[fe80::1]",
  ])("the resolved address %s is refused even with private networks allowed", (address) => {
    expect(refusal(address, everything)?.tier).toBe("never");
  });

  it("says why in the error, without suggesting a setting that could allow it", () => {
    const err = (() => {
      try {
        checkUrlStatically("http://[::ffff:a9fe:a9fe]/", everything);
      } catch (e) {
        return e as BlockedAddressError;
      }
    })();
    expect(err?.message).toMatch(/refused: cloud metadata address, embedded in an IPv4-mapped IPv6 address/);
    expect(err?.message).not.toMatch(/ASSAY_ALLOW|workspace/);
  });
});

describe("private networks: an instance setting", () => {
  const PRIVATE = [
    "10.0.0.1",
    "10.255.255.255",
    "172.16.0.1",
    "172.31.9.9",
    "192.168.1.10",
    "100.64.0.1",
    "100.127.255.254",
    "198.18.0.1",
    "fc00::1",
    "fd12:3456::1",
    "fec0::1",
    "::ffff:10.0.0.1",
    "::ffff:192.168.0.1",
    "64:ff9b::a00:1",
    "2002:c0a8:101::1",
  ];

  it.each(PRIVATE)("%s is refused unless ASSAY_ALLOW_PRIVATE_NETWORKS", (address) => {
    expect(refusal(address, defaults)?.tier).toBe("private");
    expect(refusal(address, strict)?.tier).toBe("private");
    expect(refusal(address, everything)).toBeNull();
  });

  it("refuses private URL literals statically and names the instance setting", () => {
    for (const url of ["http://10.0.0.5:8000/v1", "http://0xa000005/", "http://[fd00::5]/", "http://100.64.1.1/"]) {
      expect(() => checkUrlStatically(url, defaults), url).toThrow(/ASSAY_ALLOW_PRIVATE_NETWORKS=true/);
      expect(() => checkUrlStatically(url, everything), url).not.toThrow();
    }
  });
});

describe("loopback: allowed unless ASSAY_ALLOW_LOOPBACK=false", () => {
  it.each(["127.0.0.1", "127.1.2.3", "::1", "::ffff:127.0.0.1", "0x7f000001", "2130706433"])("%s", (address) => {
    expect(refusal(address, defaults)).toBeNull();
    expect(refusal(address, { ...everything, allowLoopback: false })?.tier).toBe("loopback");
  });

  it("applies to URLs and the name localhost", () => {
    for (const url of [
      "http://127.0.0.1:11434/v1",
      "http://localhost:11434/v1",
      "http://[::1]:8000/",
      "http://2130706433/",
      "http://api.localhost/",
    ]) {
      expect(() => checkUrlStatically(url, defaults), url).not.toThrow();
      expect(() => checkUrlStatically(url, strict), url).toThrow(/ASSAY_ALLOW_LOOPBACK=false/);
    }
  });
});

describe("public addresses", () => {
  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "169.253.255.255",
    "169.255.0.1",
    "100.63.255.255",
    "100.128.0.1",
    "2606:4700::1111",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
    "2002:808:808::1",
  ])("%s is allowed under the strictest policy", (address) => {
    expect(classifyAddress(address)?.tier).toBe("public");
    expect(refusal(address, strict)).toBeNull();
  });

  it("host names are left to the resolver, non-http schemes are refused", () => {
    expect(classifyAddress("api.openai.com")).toBeNull();
    expect(() => checkUrlStatically("https://api.openai.com/v1", strict)).not.toThrow();
    expect(() => checkUrlStatically("file:///etc/passwd", everything)).toThrow(/Only http and https/);
    expect(() => checkUrlStatically("gopher://127.0.0.1/", everything)).toThrow(/Only http and https/);
  });
});
