/**
 * Looks every pin up in its source and compares. Each source (a Helm repository index, a registry
 * repository) is fetched once however many pins share it, a few at a time, and a source that fails
 * marks only its own pins as unchecked.
 */
import { fetchIndex, fetchOciChartVersions, indexUrl } from "./helmIndex";
import { HttpSettings, SourceError } from "./http";
import { registryApiBase } from "./imageRef";
import type { Pin, PinSource } from "./pins";
import { listTags } from "./registry";
import { compareWithAvailable, VersionComparison } from "./versions";

/** Sources fetched at the same time. */
const CONCURRENCY = 6;

/** `current`: nothing newer; `outdated`: a newer version exists; `unchecked`: its source failed; `skipped`: not comparable. */
export type PinStatus = "current" | "outdated" | "unchecked" | "skipped";

/** One pin's outcome. */
export interface PinResult {
    readonly pin: Pin;
    readonly status: PinStatus;
    /** Present when the source answered and the pin is a version. */
    readonly comparison?: VersionComparison;
    /** Why it is unchecked or skipped, or a remark (the pinned version is missing from the source). */
    readonly note?: string;
}

/** A source that could not be read. */
export interface SourceFailure {
    /** What the source is, e.g. `Helm repository https://charts.jetstack.io`. */
    readonly source: string;
    /** The URL that failed. */
    readonly url: string;
    /** What failed. */
    readonly message: string;
    /** Names of the pins it left unchecked. */
    readonly pins: readonly string[];
}

/** Everything {@link checkPins} found. */
export interface CheckResult {
    readonly results: readonly PinResult[];
    readonly failures: readonly SourceFailure[];
}

type Fetched = { ok: true; versions: (pin: Pin) => readonly string[] | string } | { ok: false; url: string; message: string };

/**
 * Fetches each source once and compares every pin with it.
 *
 * @param pins - from `pinsOf`.
 * @param settings - timeout, size limit and endpoint overrides of every request.
 */
export async function checkPins(pins: readonly Pin[], settings: HttpSettings): Promise<CheckResult> {
    const keys = [...new Set(pins.map((p) => sourceKey(p.source)).filter((k): k is string => k !== undefined))];
    const bySource = new Map<string, Fetched>();
    const queue = [...keys];
    const worker = async () => {
        for (let key = queue.shift(); key !== undefined; key = queue.shift()) {
            const source = pins.find((p) => sourceKey(p.source) === key)!.source;
            bySource.set(key, await fetchSource(source, settings));
        }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, keys.length) }, worker));

    const failures = new Map<string, SourceFailure & { pins: string[] }>();
    const failed = (key: string, pin: Pin, url: string, message: string) => {
        const f = failures.get(key) ?? { source: describeSource(pin.source), url, message, pins: [] };
        f.pins.push(pin.name);
        failures.set(key, f);
    };
    const results = pins.map((pin): PinResult => {
        const key = sourceKey(pin.source);
        if (key === undefined) return { pin, status: "skipped", note: pin.source.type === "none" ? pin.source.reason : undefined };
        const fetched = bySource.get(key)!;
        if (!fetched.ok) {
            failed(key, pin, fetched.url, fetched.message);
            return { pin, status: "unchecked", note: `${fetched.message} (${fetched.url})` };
        }
        const versions = fetched.versions(pin);
        if (typeof versions === "string") {
            // The source answered but does not have this chart: a failure of this pin's lookup only.
            failed(`${key} ${pin.name}`, pin, sourceUrl(pin.source), versions);
            return { pin, status: "unchecked", note: versions };
        }
        const comparison = compareWithAvailable(pin.pinned, versions, pin.kind);
        if (!comparison) {
            return { pin, status: "skipped", note: `"${pin.pinned}" is not a version, so there is nothing to compare; pin a version to track it` };
        }
        const note = comparison.pinnedListed ? undefined : `${pin.pinned} is not listed by the source (removed, mistyped, or a mirror that is behind)`;
        return { pin, status: comparison.update === "none" ? "current" : "outdated", comparison, note };
    });
    return { results, failures: [...failures.values()] };
}

/** Pins with the same key share one request. */
function sourceKey(source: PinSource): string | undefined {
    switch (source.type) {
        case "helm-index":
            return `index ${source.repositoryUrl}`;
        case "oci-chart":
            return `oci ${source.repositoryUrl}/${source.chart}`;
        case "registry":
            return `tags ${source.registry}/${source.repository}`;
        case "none":
            return undefined;
    }
}

/** How a source is named in messages. */
export function describeSource(source: PinSource): string {
    switch (source.type) {
        case "helm-index":
            return `Helm repository ${source.repositoryUrl}`;
        case "oci-chart":
            return `OCI Helm repository ${source.repositoryUrl}/${source.chart}`;
        case "registry":
            return `registry ${source.registry}`;
        case "none":
            return "none";
    }
}

/** The URL a source is read from (before endpoint overrides). */
export function sourceUrl(source: PinSource): string {
    switch (source.type) {
        case "helm-index":
            return indexUrl(source.repositoryUrl);
        case "oci-chart":
            return `${source.repositoryUrl}/${source.chart}`;
        case "registry":
            return `${registryApiBase(source.registry)}/v2/${source.repository}/tags/list`;
        case "none":
            return "";
    }
}

async function fetchSource(source: PinSource, settings: HttpSettings): Promise<Fetched> {
    try {
        switch (source.type) {
            case "helm-index": {
                const index = await fetchIndex(source.repositoryUrl, settings);
                return {
                    ok: true,
                    versions: (pin) => {
                        const chart = pin.source.type === "helm-index" ? pin.source.chart : pin.name;
                        return index.get(chart) ?? `the index at ${indexUrl(source.repositoryUrl)} lists no chart named ${chart} (it lists ${index.size})`;
                    },
                };
            }
            case "oci-chart": {
                const versions = await fetchOciChartVersions(source.repositoryUrl, source.chart, settings);
                return { ok: true, versions: () => versions };
            }
            case "registry": {
                const tags = await listTags(source, settings);
                return { ok: true, versions: () => tags };
            }
            case "none":
                return { ok: true, versions: () => [] };
        }
    } catch (err) {
        if (err instanceof SourceError) return { ok: false, url: err.url, message: err.message };
        return { ok: false, url: sourceUrl(source), message: (err as Error)?.message ?? String(err) };
    }
}
