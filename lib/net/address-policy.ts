import net from "node:net";
import ipaddr from "ipaddr.js";

/**
 * Which network addresses outbound requests to user-given URLs (model endpoints, HTTP agents,
 * file URLs) may reach. Three tiers:
 * - never: link-local (169.254.0.0/16, fe80::/10 — where cloud metadata services live), cloud
 *   metadata addresses and host names, unspecified/multicast/reserved addresses, and every
 *   IPv6 spelling that embeds such an IPv4 address (mapped, compatible, 6to4, NAT64, Teredo).
 *   No setting changes this.
 * - loopback (127.0.0.0/8, ::1): allowed by default for local models (Ollama, vLLM);
 *   ASSAY_ALLOW_LOOPBACK=false refuses it.
 * - private networks (RFC 1918, CGNAT 100.64.0.0/10, ULA fc00::/7, …): refused unless the
 *   instance sets ASSAY_ALLOW_PRIVATE_NETWORKS=true. A workspace cannot change it.
 */
export type NetworkPolicy = {
  allowPrivateNetworks: boolean;
  allowLoopback: boolean;
  /** Cap on every response body after decompression (default 5 MB). */
  maxResponseBytes?: number;
};

export type AddressTier = "public" | "loopback" | "private" | "never";

/** Thrown before any connection is made to a refused address. */
export class BlockedAddressError extends Error {
  readonly code = "ERR_ASSAY_BLOCKED_ADDRESS";
  constructor(
    readonly host: string,
    readonly address: string | null,
    readonly reason: string,
    readonly tier: AddressTier = "never",
  ) {
    const target = address && address !== host ? `${host} (${address})` : host;
    super(`Requests to ${target} are refused: ${reason}.${HINTS[tier]}`);
    this.name = "BlockedAddressError";
  }
}

const HINTS: Record<AddressTier, string> = {
  public: "",
  never: "",
  loopback: " The instance sets ASSAY_ALLOW_LOOPBACK=false.",
  private: " An instance administrator can allow private networks with ASSAY_ALLOW_PRIVATE_NETWORKS=true.",
};

/** Host names of cloud metadata services (compared after lower-casing and dropping trailing dots). */
const METADATA_HOSTNAMES = new Set([
  "metadata",
  "metadata.google.internal",
  "metadata.goog",
  "metadata.azure.internal",
  "instance-data",
  "instance-data.ec2.internal",
]);

/** Addresses refused before the range checks, with the reason shown to the user. */
const NEVER_V4: [string, number, string][] = [
  ["100.100.100.200", 32, "cloud metadata address"], // Alibaba Cloud; inside CGNAT, so listed first
  ["192.0.0.0", 24, "IETF protocol assignment address (192.0.0.0/24)"], // incl. 192.0.0.192 (Oracle Cloud metadata)
];
const NEVER_V6: [string, number, string][] = [
  ["fd00:ec2::254", 128, "cloud metadata address"], // AWS over IPv6; inside ULA, so listed first
  ["64:ff9b:1::", 48, "local-use NAT64 address (it can embed any IPv4 address)"],
];

export type AddressVerdict = { tier: AddressTier; reason: string };

const PUBLIC: AddressVerdict = { tier: "public", reason: "public address" };

/**
 * The tier of an IP literal, or null when `address` is not one. Accepts every IPv4 spelling
 * inet_aton accepts (decimal `2852039166`, hex `0xa9fea9fe`, octal `0251.0376.0251.0376`, short
 * `169.254.43518`) and IPv6 with a zone id.
 */
export function classifyAddress(address: string): AddressVerdict | null {
  const text = address.trim().replace(/^\[(.*)\]$/, "$1");
  if (net.isIP(text) === 0 && !ipaddr.isValid(text)) return null;
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(text);
  } catch {
    return null;
  }
  return parsed.kind() === "ipv4" ? classifyV4(parsed as ipaddr.IPv4) : classifyV6(parsed as ipaddr.IPv6);
}

function classifyV4(ip: ipaddr.IPv4): AddressVerdict {
  for (const [base, bits, reason] of NEVER_V4) {
    if (ip.match(ipaddr.IPv4.parse(base), bits)) return { tier: "never", reason };
  }
  switch (ip.range()) {
    case "linkLocal":
      return {
        tier: "never",
        reason: ip.toString() === "169.254.169.254" ? "cloud metadata address" : "link-local address (169.254.0.0/16)",
      };
    case "unspecified":
      return { tier: "never", reason: "unspecified address (0.0.0.0/8 reaches this host)" };
    case "broadcast":
    case "multicast":
      return { tier: "never", reason: "broadcast or multicast address" };
    case "loopback":
      return { tier: "loopback", reason: "loopback address" };
    case "private":
      return { tier: "private", reason: "private network address (RFC 1918)" };
    case "carrierGradeNat":
      return { tier: "private", reason: "shared address space (CGNAT, 100.64.0.0/10)" };
    case "benchmarking":
      return { tier: "private", reason: "benchmarking network address (198.18.0.0/15)" };
    case "reserved":
      // ipaddr.js files 198.18.0.0/15 (lab networks) under reserved.
      if (ip.match(ipaddr.IPv4.parse("198.18.0.0"), 15)) {
        return { tier: "private", reason: "benchmarking network address (198.18.0.0/15)" };
      }
      return { tier: "never", reason: "reserved address" };
    default:
      return PUBLIC;
  }
}

function v4From(hi: number, lo: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
}

/** The stricter of two verdicts (never > private > loopback > public). */
function stricter(a: AddressVerdict, b: AddressVerdict): AddressVerdict {
  const rank: Record<AddressTier, number> = { public: 0, loopback: 1, private: 2, never: 3 };
  return rank[b.tier] > rank[a.tier] ? b : a;
}

function embedded(kind: string, v4: ipaddr.IPv4): AddressVerdict {
  const inner = classifyV4(v4);
  return inner.tier === "public" ? PUBLIC : { tier: inner.tier, reason: `${inner.reason}, embedded in an ${kind} IPv6 address` };
}

function classifyV6(ip: ipaddr.IPv6): AddressVerdict {
  const p = ip.parts;
  for (const [base, bits, reason] of NEVER_V6) {
    if (ip.match(ipaddr.IPv6.parse(base), bits)) return { tier: "never", reason };
  }
  // IPv4-compatible (::a.b.c.d, deprecated but still routed by some stacks); :: and ::1 are below.
  if (p.slice(0, 6).every((x) => x === 0) && (p[6] !== 0 || p[7]! > 1)) return embedded("IPv4-compatible", v4From(p[6]!, p[7]!));
  switch (ip.range()) {
    case "ipv4Mapped":
      return embedded("IPv4-mapped", ip.toIPv4Address());
    case "rfc6145":
      return embedded("IPv4-translated", v4From(p[6]!, p[7]!));
    case "rfc6052":
      return embedded("NAT64", v4From(p[6]!, p[7]!));
    case "6to4":
      return embedded("6to4", v4From(p[1]!, p[2]!));
    case "teredo":
      // The client's address is stored inverted; the server's in clear. Both are reachable.
      return stricter(embedded("Teredo", v4From(p[2]!, p[3]!)), embedded("Teredo", v4From(~p[6]! & 0xffff, ~p[7]! & 0xffff)));
    case "linkLocal":
      return { tier: "never", reason: "link-local address (fe80::/10)" };
    case "unspecified":
      return { tier: "never", reason: "unspecified address (::)" };
    case "multicast":
      return { tier: "never", reason: "multicast address" };
    case "reserved":
      return { tier: "never", reason: "reserved address" };
    case "loopback":
      return { tier: "loopback", reason: "loopback address" };
    case "uniqueLocal":
      return { tier: "private", reason: "private network address (unique local, fc00::/7)" };
    default:
      // ipaddr.js names fec0::/10 "deprecatedSiteLocal" (not in its typings).
      if (ip.match(ipaddr.IPv6.parse("fec0::"), 10)) return { tier: "private", reason: "site-local address (fec0::/10)" };
      return PUBLIC;
  }
}

/** Why `address` (an IP literal) may not be reached under `policy`, or null when it may. */
export function refusal(address: string, policy: NetworkPolicy): AddressVerdict | null {
  const verdict = classifyAddress(address);
  if (!verdict) return null;
  if (verdict.tier === "never") return verdict;
  if (verdict.tier === "loopback" && !policy.allowLoopback) return verdict;
  if (verdict.tier === "private" && !policy.allowPrivateNetworks) return verdict;
  return null;
}

/** Strips IPv6 brackets and trailing dots; lower-cases. */
export function normaliseHost(hostname: string): string {
  let host = hostname.trim().toLowerCase();
  if (host.startsWith("[") && host.endsWith("]")) host = host.slice(1, -1);
  return host.replace(/\.+$/, "");
}

/** Throws BlockedAddressError when `host` (a name or an IP literal) is refused without DNS. */
export function assertHostAllowed(hostname: string, policy: NetworkPolicy): void {
  const host = normaliseHost(hostname);
  if (METADATA_HOSTNAMES.has(host)) throw new BlockedAddressError(host, null, "cloud metadata service");
  if (!policy.allowLoopback && (host === "localhost" || host.endsWith(".localhost"))) {
    throw new BlockedAddressError(host, null, "loopback host name", "loopback");
  }
  const verdict = refusal(host, policy);
  if (verdict) throw new BlockedAddressError(host, host, verdict.reason, verdict.tier);
}

/** Throws BlockedAddressError when a resolved address of `host` is refused. */
export function assertAddressAllowed(host: string, address: string, policy: NetworkPolicy): void {
  const verdict = refusal(address, policy);
  if (verdict) throw new BlockedAddressError(host, address, verdict.reason, verdict.tier);
}

/**
 * Checks what can be checked without DNS: the URL's scheme, metadata host names and literal
 * IP addresses. Throws BlockedAddressError (or TypeError for a bad URL).
 */
export function checkUrlStatically(url: string | URL, policy: NetworkPolicy): URL {
  const parsed = typeof url === "string" ? new URL(url) : url;
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new TypeError(`Only http and https URLs are allowed (got ${parsed.protocol})`);
  }
  assertHostAllowed(parsed.hostname, policy);
  return parsed;
}
