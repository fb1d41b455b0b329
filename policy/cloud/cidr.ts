/** IPv4 CIDR blocks, for the rules that restrict who may reach a cluster's API. */

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(?:\/(\d{1,2}))?$/;

/** The first and last address of a block as numbers, or undefined when `cidr` is not IPv4 (a lone address is a /32). */
function range(cidr: string): [number, number] | undefined {
    const m = IPV4.exec(cidr.trim());
    if (!m) return undefined;
    const octets = m.slice(1, 5).map(Number);
    const prefix = m[5] === undefined ? 32 : Number(m[5]);
    if (octets.some((o) => o > 255) || prefix > 32) return undefined;
    const start = octets.reduce((a, o) => a * 256 + o, 0);
    const size = 2 ** (32 - prefix);
    const first = start - (start % size);
    return [first, first + size - 1];
}

/** Whether `cidr` lets in the whole internet (0.0.0.0/0, or any block with no prefix bits). */
export const isWorldOpen = (cidr: string) => {
    const r = range(cidr);
    return r !== undefined && r[0] === 0 && r[1] === 2 ** 32 - 1;
};

/** Whether every address of `inner` is inside `outer`. */
export function cidrWithin(inner: string, outer: string): boolean {
    const a = range(inner);
    const b = range(outer);
    return a !== undefined && b !== undefined && a[0] >= b[0] && a[1] <= b[1];
}

/**
 * Why a list of blocks allowed to reach a cluster's API is too wide, or undefined: it is empty or open to the world,
 * or a block falls outside every one of `allowed` (when `allowed` names any).
 */
export function cidrProblem(blocks: readonly string[] | undefined, allowed: readonly string[]): string | undefined {
    if (blocks === undefined || blocks.length === 0) return "admits every address (no CIDR blocks are given)";
    const open = blocks.find(isWorldOpen);
    if (open) return `admits every address (${open})`;
    const outside = allowed.length > 0 ? blocks.filter((b) => !allowed.some((a) => cidrWithin(b, a))) : [];
    if (outside.length > 0) return `admits ${outside.join(", ")}, outside the allowed ${allowed.join(", ")}`;
    return undefined;
}

/** The setting every API-endpoint rule shares. */
export const ALLOWED_CIDRS_SETTING = {
    description: "CIDR blocks the cluster API's allow-list must stay within; empty: any blocks, as long as they do not admit every address.",
    schema: { type: "array" as const, items: { type: "string" as const } },
    default: [] as string[],
};
