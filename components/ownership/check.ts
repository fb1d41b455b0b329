/**
 * The ownership check itself: read what the cluster holds under each claimed name, judge it by the one rule
 * (./rule.ts), and say what stands in the way. Used by the guard's dynamic provider; `mara doctor` judges the same way
 * from its own reads.
 */
import { Claims, describeClaim, ObjectClaim, objectPath, ReleaseClaim, releaseRecordPaths } from "./claims";
import type { MetadataReader } from "./clusterReader";
import { PART_OF_LABEL, PART_OF_VALUE, STACK_ANNOTATION } from "./marks";
import { isPlatforms, judgeObject, judgeRelease, objectRefusal, ObservedMeta, Refusal, refusalLines, releaseRefusal, RuleContext, Verdict } from "./rule";

/** What one check found: every verdict, and the refusals among them. */
export interface OwnershipReport {
    /** Each claimed object with its verdict, the namespaces first. */
    readonly objects: readonly { readonly claim: ObjectClaim; readonly verdict: Verdict }[];
    /** Each claimed release with its verdict. */
    readonly releases: readonly { readonly claim: ReleaseClaim; readonly verdict: Verdict }[];
    /** The verdicts that stop the platform, for messages: empty when every name is free or the platform's. */
    readonly refusals: readonly Refusal[];
}

/** Runs `fn` over `items`, keeping their order (the reader bounds how many run at once). */
const all = <I, O>(items: readonly I[], fn: (item: I) => Promise<O>) => Promise.all(items.map(fn));

/**
 * Judges `claims` on the cluster `reader` reads. The namespaces are judged first: whether the platform is already there
 * (this stack's or an earlier version's namespaces) decides how an unlabelled object Pulumi applied is taken.
 *
 * @param context - the stack's identity and whether Argo CD delivers the platform.
 */
export async function checkOwnership(reader: MetadataReader, claims: Claims, context: Omit<RuleContext, "platformPresent">): Promise<OwnershipReport> {
    const namespaces = claims.objects.filter((c) => c.kind === "Namespace");
    const others = claims.objects.filter((c) => c.kind !== "Namespace");
    // The namespaces of releases that are not claimed themselves are read too: a release is judged by its namespace.
    const releaseNamespaces = [...new Set(claims.releases.map((r) => r.namespace))].filter((n) => !namespaces.some((c) => c.name === n));
    const [nsFound, extraFound] = await Promise.all([all(namespaces, (c) => reader.get(objectPath(c))), all(releaseNamespaces, (n) => reader.get(`/api/v1/namespaces/${encodeURIComponent(n)}`))]);
    const nsContext = { ...context, platformPresent: false };
    const nsVerdicts = namespaces.map((c, i) => ({ claim: c, verdict: judgeObject(c, nsFound[i], nsContext) }));
    const extraVerdicts = new Map(releaseNamespaces.map((n, i) => [n, judgeObject({ origin: "program" }, extraFound[i], nsContext)]));
    const platformPresent = [...nsVerdicts.map((v) => v.verdict), ...extraVerdicts.values()].some(isPlatforms);
    const ctx: RuleContext = { ...context, platformPresent };

    const [found, records] = await Promise.all([all(others, (c) => reader.get(objectPath(c))), all(claims.releases, (r) => releaseRecords(reader, r))]);
    const objects = [...nsVerdicts, ...others.map((c, i) => ({ claim: c, verdict: judgeObject(c, found[i], ctx) }))];
    const namespaceVerdict = (n: string): Verdict => nsVerdicts.find((v) => v.claim.name === n)?.verdict ?? extraVerdicts.get(n) ?? { state: "free" };
    const releases = claims.releases.map((r, i) => ({ claim: r, verdict: judgeRelease(records[i]!, namespaceVerdict(r.namespace)) }));
    const refusals = [...objects.map((o) => objectRefusal(o.claim, o.verdict)), ...releases.map((r) => releaseRefusal(r.claim, r.verdict))].filter((r): r is Refusal => !!r);
    return { objects, releases, refusals };
}

async function releaseRecords(reader: MetadataReader, r: ReleaseClaim) {
    const [secrets, configMaps] = releaseRecordPaths(r);
    const [s, c] = await Promise.all([reader.list(secrets!), reader.list(configMaps!)]);
    return [...s.map((meta: ObservedMeta) => ({ kind: "Secret" as const, meta })), ...c.map((meta: ObservedMeta) => ({ kind: "ConfigMap" as const, meta }))];
}

/**
 * The error the guard fails `pulumi up` with: every object in the way, whose it is and the way out, and what the
 * platform's marks are.
 */
export function refusalMessage(refusals: readonly Refusal[], identity: string, server: string): string {
    return [
        `The platform will not take over objects it did not create on ${server}, so it created nothing there:`,
        ...refusalLines(refusals).map((l) => `  - ${l}`),
        `Every namespace and cluster-wide object the platform creates carries the label ${PART_OF_LABEL}=${PART_OF_VALUE} and the annotation ${STACK_ANNOTATION}=<project>/<stack> (this stack: ${identity}); \`mara doctor\` runs the same check.`,
    ].join("\n");
}

/** Objects of `claims` that were already judged the platform's, for the log: what the check accepted and why. */
export function acceptedLines(report: OwnershipReport): string[] {
    return report.objects
        .filter((o) => o.verdict.state === "earlier")
        .map((o) => `${describeClaim(o.claim)} taken as the platform's (${(o.verdict as { evidence: string }).evidence}); it gets this stack's mark`);
}
