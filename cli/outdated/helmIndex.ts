/**
 * A Helm repository's chart versions. Classic repositories publish `index.yaml` at their URL (what
 * `helm repo update` downloads); OCI repositories (`oci://…`) keep each chart as a registry repository
 * whose tags are its versions.
 *
 * Indexes are read with js-yaml rather than the `yaml` package the project uses for stack files: public
 * indexes reach tens of megabytes, and on those js-yaml parses 6–10 times faster with less than half the
 * memory (`npx ts-node -T bench/helmIndex.ts` measures both).
 */
import { FAILSAFE_SCHEMA, load } from "js-yaml";
import { httpGet, HttpSettings, SourceError, statusError } from "./http";
import { listTags } from "./registry";

/** Chart name → every version the repository lists. */
export type ChartVersions = ReadonlyMap<string, readonly string[]>;

/** The URL of a classic repository's index. */
export function indexUrl(repositoryUrl: string): string {
    return `${repositoryUrl.replace(/\/+$/, "")}/index.yaml`;
}

/**
 * Downloads and reads a classic repository's `index.yaml`.
 *
 * @throws SourceError naming the URL: unreachable, not found, not an index.
 */
export async function fetchIndex(repositoryUrl: string, settings: HttpSettings): Promise<ChartVersions> {
    const answer = await httpGet(indexUrl(repositoryUrl), settings, { accept: "application/x-yaml, text/yaml, */*" });
    if (answer.status !== 200) throw statusError(answer, "no Helm repository index here");
    return readIndex(answer.body, answer.url);
}

/**
 * Reads the text of an `index.yaml` into chart versions. The failsafe schema keeps every scalar a
 * string, so `version: 1.10` stays "1.10" rather than becoming the number 1.1.
 *
 * @throws SourceError naming the URL when the text is not a Helm repository index.
 */
export function readIndex(text: string, url: string): ChartVersions {
    let doc: unknown;
    try {
        doc = load(text, { schema: FAILSAFE_SCHEMA });
    } catch (err) {
        throw new SourceError(url, `index.yaml is not valid YAML: ${(err as Error).message.split("\n")[0]}`);
    }
    const entries = (doc as { entries?: unknown } | null)?.entries;
    if (!entries || typeof entries !== "object" || Array.isArray(entries)) {
        throw new SourceError(url, 'not a Helm repository index: it has no "entries" map');
    }
    const charts = new Map<string, string[]>();
    for (const [name, list] of Object.entries(entries as Record<string, unknown>)) {
        const versions = Array.isArray(list)
            ? list.map((e) => (e as { version?: unknown } | null)?.version).filter((v): v is string => typeof v === "string")
            : [];
        charts.set(name, versions);
    }
    return charts;
}

/**
 * The versions of a chart in an OCI repository: the tags of `<repository>/<chart>`. Helm stores a
 * version's `+` as `_` in tags, because tags cannot hold `+`.
 *
 * @param repositoryUrl - `oci://host[:port]/path`.
 */
export async function fetchOciChartVersions(repositoryUrl: string, chart: string, settings: HttpSettings): Promise<string[]> {
    const u = new URL(repositoryUrl.replace(/^oci:/, "https:"));
    const path = u.pathname.replace(/^\/+|\/+$/g, "");
    const tags = await listTags({ registry: u.host, repository: path ? `${path}/${chart}` : chart }, settings);
    return tags.map((t) => t.replace(/_/g, "+"));
}
