import net from "node:net";

/**
 * Which network addresses outbound requests to user-given URLs (model endpoints, HTTP agents)
 * may reach. Loopback and RFC 1918 addresses stay allowed (self-hosted Ollama/vLLM are common);
 * link-local and cloud metadata addresses, and the unspecified address, are refused unless the
 * workspace (or ASSAY_ALLOW_PRIVATE_NETWORKS) allows private networks.
 */
export type NetworkPolicy = { allowPrivateNetworks: boolean };

/** Thrown before any connection is made to a refused address. */
export class BlockedAddressError extends Error {
  readonly code = "ERR_ASSAY_BLOCKED_ADDRESS";
  constructor(
    readonly host: string,
    readonly address: string | null,
    readonly reason: string,
  ) {
    super(
      address && address !== host
        ? `Requests to ${host} (${address}) are blocked: ${reason}. Allow private networks in the workspace settings to permit it.`
        : `Requests to ${host} are blocked: ${reason}. Allow private networks in the workspace settings to permit it.`,
    );
    this.name = "BlockedAddressError";
  }
}

const BLOCKED_HOSTNAMES = new Map<string, string>([
  ["metadata.google.internal", "cloud metadata service"],
  ["metadata.goog", "cloud metadata service"],
]);

const blocked = new net.BlockList();
blocked.addSubnet("169.254.0.0", 16, "ipv4"); // link-local, incl. 169.254.169.254 (AWS/GCP/Azure metadata)
blocked.addSubnet("0.0.0.0", 8, "ipv4"); // "this network"; 0.0.0.0 reaches the local host
blocked.addAddress("100.100.100.200", "ipv4"); // Alibaba Cloud metadata
blocked.addSubnet("fe80::", 10, "ipv6"); // link-local
blocked.addAddress("fd00:ec2::254", "ipv6"); // AWS metadata over IPv6
blocked.addAddress("::", "ipv6"); // unspecified

/** Expands an IPv6 address into its 8 hextets (handles `::` and a trailing dotted IPv4). */
function ipv6Hextets(address: string): number[] | null {
  let text = address.toLowerCase().split("%")[0]!;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const parts = dotted[1]!.split(".").map(Number);
    text = text.slice(0, -dotted[1]!.length) + `${((parts[0]! << 8) | parts[1]!).toString(16)}:${((parts[2]! << 8) | parts[3]!).toString(16)}`;
  }
  const [head, tail] = text.includes("::") ? text.split("::") : [text, undefined];
  const headParts = head ? head.split(":") : [];
  const tailParts = tail !== undefined && tail !== "" ? tail.split(":") : [];
  const missing = 8 - headParts.length - tailParts.length;
  if (missing < 0 || (tail === undefined && missing !== 0)) return null;
  const all = [...headParts, ...Array<string>(tail === undefined ? 0 : missing).fill("0"), ...tailParts];
  const nums = all.map((h) => Number.parseInt(h, 16));
  return nums.length === 8 && nums.every((n) => Number.isInteger(n) && n >= 0 && n <= 0xffff) ? nums : null;
}

/** The IPv4 address embedded in an IPv4-mapped (::ffff:a.b.c.d) or NAT64 (64:ff9b::a.b.c.d) address. */
function embeddedIpv4(address: string): string | null {
  const h = ipv6Hextets(address);
  if (!h) return null;
  const mapped = h.slice(0, 5).every((x) => x === 0) && h[5] === 0xffff;
  const nat64 = h[0] === 0x64 && h[1] === 0xff9b && h.slice(2, 6).every((x) => x === 0);
  if (!mapped && !nat64) return null;
  return [h[6]! >> 8, h[6]! & 0xff, h[7]! >> 8, h[7]! & 0xff].join(".");
}

/** Why `address` (an IP literal) may not be reached, or null when it may. */
export function blockedAddressReason(address: string): string | null {
  const family = net.isIP(address);
  if (family === 0) return null;
  if (family === 6) {
    const v4 = embeddedIpv4(address);
    if (v4) return blockedAddressReason(v4);
    if (blocked.check(address.split("%")[0]!, "ipv6")) return describe(address);
    return null;
  }
  return blocked.check(address, "ipv4") ? describe(address) : null;
}

function describe(address: string): string {
  if (address === "169.254.169.254" || address === "100.100.100.200" || address.toLowerCase() === "fd00:ec2::254") {
    return "cloud metadata address";
  }
  if (address.startsWith("0.") || address === "::") return "unspecified address";
  return "link-local address";
}

/** Strips IPv6 brackets and a trailing dot; lower-cases. */
export function normaliseHost(hostname: string): string {
  let host = hostname.toLowerCase();
  if (host.startsWith("[") && host.endsWith("]")) host = host.slice(1, -1);
  if (host.endsWith(".")) host = host.slice(0, -1);
  return host;
}

/**
 * Checks what can be checked without DNS: the URL's scheme, blocked host names and literal
 * IP addresses. Throws BlockedAddressError (or TypeError for a bad URL).
 */
export function checkUrlStatically(url: string | URL, policy: NetworkPolicy): URL {
  const parsed = typeof url === "string" ? new URL(url) : url;
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new TypeError(`Only http and https URLs are allowed (got ${parsed.protocol})`);
  }
  if (policy.allowPrivateNetworks) return parsed;
  const host = normaliseHost(parsed.hostname);
  const byName = BLOCKED_HOSTNAMES.get(host);
  if (byName) throw new BlockedAddressError(host, null, byName);
  const reason = blockedAddressReason(host);
  if (reason) throw new BlockedAddressError(host, host, reason);
  return parsed;
}
