/** What a process has loaded: Pulumi SDK packages in require.cache, and the import chains that pulled them in. */
import * as path from "path";
import { REPO } from "./stacks";

/** The package a module file belongs to (`@pulumi/aws` for .../node_modules/@pulumi/aws/ec2/vpc.js). */
export function packageOf(file: string): string | undefined {
    const parts = file.split(/[\\/]/);
    const i = parts.lastIndexOf("node_modules");
    if (i < 0 || i + 1 >= parts.length) return undefined;
    return parts[i + 1]!.startsWith("@") ? `${parts[i + 1]}/${parts[i + 2]}` : parts[i + 1];
}

/** @pulumi/* packages with at least one module in require.cache. */
export function loadedPulumiPackages(): string[] {
    const found = new Set<string>();
    for (const file of Object.keys(require.cache)) {
        const pkg = packageOf(file);
        if (pkg?.startsWith("@pulumi/")) found.add(pkg);
    }
    return [...found].sort();
}

/**
 * For each package, the chain of the program's own modules through which `entry` first required it,
 * e.g. ["index.ts", "providers/index.ts", "providers/aws.ts", "@pulumi/aws"]. Found by a breadth-first
 * walk of Module.children from the entry module (the first path found is a shortest one).
 */
export function requireChains(entry: string, packages: string[]): Record<string, string[]> {
    const root = require.cache[entry];
    const out: Record<string, string[]> = {};
    if (!root) return out;
    const rel = (m: NodeModule) => packageOf(m.filename) ?? path.relative(REPO, m.filename);
    const parent = new Map<NodeModule, NodeModule | undefined>([[root, undefined]]);
    const queue: NodeModule[] = [root];
    while (queue.length) {
        const m = queue.shift()!;
        const pkg = packageOf(m.filename);
        if (pkg && packages.includes(pkg) && !out[pkg]) {
            const chain: string[] = [];
            for (let cur: NodeModule | undefined = m; cur; cur = parent.get(cur)) chain.unshift(rel(cur));
            out[pkg] = chain;
        }
        // Do not walk into third-party packages: the question is which of the program's imports pulls a package in.
        if (pkg) continue;
        for (const c of m.children) {
            if (!parent.has(c)) {
                parent.set(c, m);
                queue.push(c);
            }
        }
    }
    return out;
}

/**
 * For each package, the program's own modules (outside node_modules) that require it directly: every
 * import a lazy-loading fix has to change, not only the first one found.
 */
export function directImporters(packages: string[]): Record<string, string[]> {
    const out: Record<string, string[]> = Object.fromEntries(packages.map((p) => [p, [] as string[]]));
    for (const [file, m] of Object.entries(require.cache)) {
        if (!m || packageOf(file)) continue;
        for (const c of m.children) {
            const pkg = packageOf(c.filename);
            if (pkg && out[pkg] && !out[pkg]!.includes(path.relative(REPO, file))) out[pkg]!.push(path.relative(REPO, file));
        }
    }
    for (const list of Object.values(out)) list.sort();
    return out;
}

/**
 * The npm package whose SDK a registration of type `type` needs: `@pulumi/aws` for
 * `aws:ec2/vpc:Vpc` and `pulumi:providers:aws`; undefined for the program's own components and for
 * `pulumi-nodejs:dynamic:*` resources, which @pulumi/pulumi itself provides.
 */
export function sdkOf(type: string): string | undefined {
    const pkg = type.startsWith("pulumi:providers:") ? type.split(":")[2]! : type.split(":")[0]!;
    if (pkg === "mara" || pkg === "pulumi" || pkg === "pulumi-nodejs") return undefined;
    return `@pulumi/${pkg}`;
}

/** The SDK packages a set of registrations needs, sorted. */
export function sdksOf(types: Iterable<string>): string[] {
    return [...new Set([...types].map(sdkOf).filter((p): p is string => !!p))].sort();
}
