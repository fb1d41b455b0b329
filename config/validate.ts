/**
 * Turns raw config into the typed `MaraConfig`, checking types, ranges, enums and the rules that span
 * several keys. Pure and total: it returns every problem it finds instead of stopping at the first, so
 * `mara validate` can list them all and `loadConfig` can fail before any resource exists.
 */
import { CHARTS, ChartId } from "./catalogue";
import {
    INFORMATIONAL_KEYS,
    INFRA_TYPES,
    KEYS,
    KeyId,
    KeySpec,
    KeyValue,
    LEGACY_CHART_NAME_KEYS,
    MARA_NAMESPACES,
    OLDEST_EKS_VERSION,
    PROJECT_NAMESPACE,
} from "./keys";
import type {
    AwsInfraConfig,
    ChartSettings,
    DigitalOceanInfraConfig,
    InfraConfig,
    KubeconfigInfraConfig,
    LinodeInfraConfig,
    MaraConfig,
} from "./model";
import { ConfigProblem, configSetCommand } from "./problems";
import { Findings, legacyName, RawConfig, resolve, Resolved, secretOutput } from "./resolve";
import { closest } from "./suggest";
import { availabilityZoneProblem } from "./zones";

/** What validation found. `config` is present only when there are no problems. */
export interface ValidationResult {
    readonly config?: MaraConfig;
    readonly problems: readonly ConfigProblem[];
    readonly warnings: readonly string[];
}

/** Every key the program knows, canonical and legacy, for typo suggestions. */
export const KNOWN_KEYS: readonly string[] = [
    ...new Set([
        ...Object.values(KEYS).flatMap((s) => [s.key, ...s.legacy.map((l) => l.key)]),
        ...Object.keys(INFORMATIONAL_KEYS),
        ...Object.keys(LEGACY_CHART_NAME_KEYS),
    ]),
];

/** Validates raw config; see the module comment. */
export function validateConfig(raw: RawConfig): ValidationResult {
    const findings = new Findings();
    checkKeyNames(raw, findings);
    const ignoredLegacyCharts = legacyChartsToIgnore(raw, findings);

    const resolved = new Map<KeyId, Resolved<unknown>>();
    const r = <K extends KeyId>(id: K): Resolved<KeyValue<K>> => {
        let hit = resolved.get(id);
        if (!hit) {
            const chartId = chartOf(id);
            hit = resolve<unknown>(raw, KEYS[id] as KeySpec<unknown>, findings, { ignoreLegacy: chartId !== undefined && ignoredLegacyCharts.has(chartId) });
            resolved.set(id, hit);
        }
        return hit as Resolved<KeyValue<K>>;
    };
    const v = <K extends KeyId>(id: K) => r(id).value;
    /** The key to name in a message about `id`: the one the user set, else the canonical key. */
    const keyOf = (id: KeyId) => r(id).source ?? KEYS[id].key;

    // Resolve every key up front so that type problems are reported even for unused sections.
    for (const id of Object.keys(KEYS) as KeyId[]) r(id);

    const infraType = v("infraType");
    if (r("infraType").source === undefined) {
        findings.problem({
            key: "kubernetes:infra_type",
            problem: "is not set",
            allowed: `one of ${INFRA_TYPES.map((t) => `"${t}"`).join(", ")} (MARA's AWS, DO and LKE also work)`,
            fix: `${configSetCommand("kubernetes:infra_type", "aws")} (or ${KEYS.infraType.key})`,
        });
    }

    const clusterName = checkClusterName(raw, infraType, r("clusterName"), findings);
    const infra = infraType ? buildInfra(infraType, raw, r, v, keyOf, findings) : undefined;
    checkFqdnRequired(infraType, r("fqdn"), findings);
    const kic = buildKic(r, v, keyOf, findings);
    checkLogstore(v, keyOf, findings);
    checkChartVersions(r, findings);

    if (findings.problems.length > 0 || !infra) {
        return { problems: findings.problems, warnings: findings.warnings };
    }

    const chart = (id: ChartId): ChartSettings => ({
        chart: CHARTS[id].chart,
        version: v(`${id}ChartVersion`)!,
        repositoryUrl: v(`${id}HelmRepoUrl`)!,
        timeoutSeconds: v(`${id}HelmTimeout`)!,
    });

    const config: MaraConfig = {
        project: raw.project,
        stack: raw.stack,
        clusterName,
        fqdn: v("fqdn"),
        infra,
        kic,
        ingress: { chart: chart("ingress"), enablePlus: v("ingressEnablePlus")! },
        certManager: { chart: chart("certManager") },
        logstore: {
            chart: chart("logstore"),
            replicas: {
                master: v("logstoreMasterReplicas")!,
                data: v("logstoreDataReplicas")!,
                ingest: v("logstoreIngestReplicas")!,
                coordinating: v("logstoreCoordinatingReplicas")!,
            },
        },
        logagent: { chart: chart("logagent") },
        prometheus: {
            chart: chart("prometheus"),
            statsdChart: chart("statsd"),
            grafanaAdminPassword: secretOutput(r("grafanaAdminPassword")),
        },
        observability: { otelOperatorChart: chart("otelOperator") },
        sirius: {
            hostname: v("siriusHostname"),
            accountsAdmin: v("siriusAccountsAdmin")!,
            accountsDb: v("siriusAccountsDb")!,
            ledgerAdmin: v("siriusLedgerAdmin")!,
            ledgerDb: v("siriusLedgerDb")!,
            demoUser: v("siriusDemoUser")!,
            accountsPassword: secretOutput(r("siriusAccountsPassword")),
            ledgerPassword: secretOutput(r("siriusLedgerPassword")),
            demoPassword: secretOutput(r("siriusDemoPassword")),
            postgresExporterChart: chart("postgresExporter"),
        },
    };
    return { config: deepFreeze(config), problems: [], warnings: findings.warnings };
}

type Get = <K extends KeyId>(id: K) => KeyValue<K> | undefined;
type GetResolved = <K extends KeyId>(id: K) => Resolved<KeyValue<K>>;
type KeyOf = (id: KeyId) => string;

function chartOf(id: KeyId): ChartId | undefined {
    const m = /^(\w+?)(ChartVersion|HelmRepoUrl)$/.exec(id);
    return m && m[1]! in CHARTS ? (m[1] as ChartId) : undefined;
}

/** Unknown keys in namespaces we own are typos until proven otherwise. */
function checkKeyNames(raw: RawConfig, findings: Findings): void {
    for (const key of Object.keys(raw.values)) {
        const name = key.slice(key.indexOf(":") + 1);
        const dotted = /^([a-z-]+)\.(\w+)$/.exec(name);
        // The CLI files a key written without a colon under the project; MARA's example has one such typo.
        if (key.startsWith(`${PROJECT_NAMESPACE}:`) && dotted && (MARA_NAMESPACES as readonly string[]).includes(dotted[1]!)) {
            const meant = `${dotted[1]}:${dotted[2]}`;
            findings.warn(
                `"${name}" is ignored: it has a dot where a colon belongs, so Pulumi files it under the project as ${key}` +
                    (KNOWN_KEYS.includes(meant) ? `; write it as ${meant}.` : "."),
            );
            continue;
        }
        const ns = key.slice(0, key.indexOf(":"));
        if (!(MARA_NAMESPACES as readonly string[]).includes(ns) || KNOWN_KEYS.includes(key)) continue;
        const guess = closest(key, KNOWN_KEYS);
        const hint = guess ? `did you mean ${guess}?` : "see the README's configuration reference";
        if (ns === PROJECT_NAMESPACE) {
            findings.problem({
                key,
                value: raw.secretKeys.has(key) ? undefined : raw.values[key],
                problem: "is not a setting this program knows",
                allowed: "the keys listed in the README's configuration reference and Pulumi.yaml",
                fix: `${hint} Remove it with: pulumi config rm ${key}`,
            });
        } else {
            findings.warn(`${key} is not a setting this program reads and is ignored; ${hint}`);
        }
    }
}

/**
 * A MARA section whose `chart_name` names a different chart than we install (Bitnami Elasticsearch,
 * Filebeat) carries a version and repository for that other chart; those keys must not be applied
 * to ours.
 */
function legacyChartsToIgnore(raw: RawConfig, findings: Findings): Set<ChartId> {
    const ignored = new Set<ChartId>();
    const named = new Map<ChartId, string>();
    for (const [key, id] of Object.entries(LEGACY_CHART_NAME_KEYS)) {
        const name = raw.values[key]?.trim();
        if (name !== undefined) named.set(id, name);
        if (name !== undefined && name !== CHARTS[id].chart) {
            findings.warn(
                `${key} = "${name}" is ignored: this platform installs the ${CHARTS[id].chart} chart (${CHARTS[id].title}) ` +
                    `instead, so the section's chart_version and helm_repo_url keys do not apply. ` +
                    `To pin our chart, set mara:${id}ChartVersion.`,
            );
        }
    }
    for (const id of Object.keys(CHARTS) as ChartId[]) {
        const name = named.get(id);
        const maraChart = CHARTS[id].maraChart;
        if (name !== undefined ? name !== CHARTS[id].chart : maraChart !== undefined) ignored.add(id);
    }
    return ignored;
}

function defaultClusterName(stack: string): string {
    const base = `mara-${stack}`.toLowerCase().replace(/[^a-z0-9-]+/g, "-").replace(/-+/g, "-");
    return base.slice(0, 40).replace(/-+$/, "");
}

function checkClusterName(
    raw: RawConfig,
    infraType: string | undefined,
    name: Resolved<string>,
    findings: Findings,
): string {
    const value = name.value ?? defaultClusterName(raw.stack);
    // An existing cluster keeps whatever name it has; clusters we create must fit every cloud's naming rules.
    if (name.source && infraType && infraType !== "kubeconfig" && !/^[a-z0-9]([-a-z0-9]{0,38}[a-z0-9])?$/.test(value)) {
        findings.problem({
            key: name.source,
            value,
            problem: "cannot name a new cluster",
            allowed: "lower-case letters, digits and '-', starting and ending with a letter or digit, at most 40 characters",
            fix: configSetCommand(name.source, defaultClusterName(raw.stack)),
        });
    }
    return value;
}

function checkFqdnRequired(infraType: string | undefined, fqdn: Resolved<string>, findings: Findings): void {
    if (!infraType || infraType === "aws" || fqdn.source !== undefined) return;
    findings.problem({
        key: "kic-helm:fqdn",
        problem: `is not set, and ${infraType} load balancers have no host name of their own`,
        allowed: KEYS.fqdn.type.allowed,
        fix: `${configSetCommand("kic-helm:fqdn", "mara.example.com")} (or ${KEYS.fqdn.key})`,
    });
}

function buildInfra(
    type: NonNullable<KeyValue<"infraType">>,
    raw: RawConfig,
    r: GetResolved,
    v: Get,
    keyOf: KeyOf,
    findings: Findings,
): InfraConfig | undefined {
    switch (type) {
        case "aws":
            return buildAws(raw, r, v, keyOf, findings);
        case "digitalocean":
            return buildDigitalOcean(raw, r, v);
        case "linode":
            return buildLinode(raw, r, v, findings);
        case "kubeconfig":
            return buildKubeconfig(v, findings);
        default:
            return undefined;
    }
}

function buildAws(raw: RawConfig, r: GetResolved, v: Get, keyOf: KeyOf, findings: Findings): AwsInfraConfig | undefined {
    const envRegion = raw.env.AWS_REGION ?? raw.env.AWS_DEFAULT_REGION;
    let region = v("awsRegion");
    if (region === undefined && r("awsRegion").source === undefined) {
        if (envRegion !== undefined) {
            const parsed = KEYS.awsRegion.type.parse(envRegion);
            if (parsed.ok) region = parsed.value;
            else findings.problem({ key: "AWS_REGION", value: envRegion, problem: parsed.reason, allowed: KEYS.awsRegion.type.allowed, fix: "export AWS_REGION=us-east-1" });
        } else {
            findings.problem({
                key: "aws:region",
                problem: "is not set",
                allowed: KEYS.awsRegion.type.allowed,
                fix: `${configSetCommand("aws:region", "us-east-1")} (or export AWS_REGION)`,
            });
        }
    }

    const azs = v("vpcAzs");
    if (azs && region) {
        const azKey = keyOf("vpcAzs");
        for (const az of azs) {
            const why = availabilityZoneProblem(az, region);
            if (why) {
                findings.problem({
                    key: azKey,
                    value: JSON.stringify(azs),
                    problem: `lists "${az}", which ${why}`,
                    allowed: `availability zones of ${region}, such as ${region}a, ${region}b and ${region}c`,
                    fix: `set ${azKey} to zones of ${region} (or remove it to use the first ${v("vpcAzCount")} zones), or change aws:region to the zones' region`,
                });
            }
        }
        const dupes = azs.filter((az, i) => azs.indexOf(az) !== i);
        if (dupes.length > 0) {
            findings.problem({ key: azKey, value: JSON.stringify(azs), problem: `lists ${dupes.join(", ")} more than once`, allowed: "distinct availability zones", fix: `remove the duplicates from ${azKey}` });
        }
        if (azs.length < 2 || azs.length > 6) {
            findings.problem({
                key: azKey,
                value: JSON.stringify(azs),
                problem: azs.length < 2 ? "lists fewer than two zones; EKS needs subnets in at least two" : "lists more than six zones",
                allowed: "two to six availability zones",
                fix: `list two to six zones of ${region} in ${azKey}`,
            });
        }
    }

    const version = v("eksVersion");
    if (version && compareVersions(version, OLDEST_EKS_VERSION) < 0) {
        findings.warn(
            `${keyOf("eksVersion")} = ${version}: EKS no longer creates clusters older than ${OLDEST_EKS_VERSION}, so \`pulumi up\` would fail. ` +
                `Set ${keyOf("eksVersion")} to ${KEYS.eksVersion.default} or remove it to use the default.`,
        );
    }

    const min = v("eksMinSize");
    const max = v("eksMaxSize");
    if (min !== undefined && max !== undefined && min > max) {
        findings.problem({
            key: keyOf("eksMinSize"),
            value: String(min),
            problem: `is greater than ${keyOf("eksMaxSize")} (${max})`,
            allowed: `a minimum no greater than the maximum`,
            fix: `lower ${keyOf("eksMinSize")} or raise ${keyOf("eksMaxSize")}, e.g. ${configSetCommand(keyOf("eksMaxSize"), String(Math.max(min, 12)))}`,
        });
    }
    let desired = v("eksDesiredCapacity");
    if (min !== undefined && max !== undefined && min <= max) {
        if (desired === undefined && r("eksDesiredCapacity").source === undefined) {
            desired = Math.max(1, Math.min(Math.max(3, min), max));
        } else if (desired !== undefined && (desired < min || desired > max)) {
            findings.problem({
                key: keyOf("eksDesiredCapacity"),
                value: String(desired),
                problem: `is outside [${min}, ${max}], the node group's minimum (${keyOf("eksMinSize")}) and maximum (${keyOf("eksMaxSize")})`,
                allowed: `a whole number from ${min} to ${max}`,
                fix: configSetCommand(keyOf("eksDesiredCapacity"), String(Math.min(Math.max(desired, min), max))),
            });
        }
    }

    if (!region || !version || min === undefined || max === undefined || desired === undefined) return undefined;
    return {
        type: "aws",
        region,
        profile: v("awsProfile"),
        vpc: {
            cidr: v("vpcCidr")!,
            availabilityZones: azs,
            availabilityZoneCount: azs?.length ?? v("vpcAzCount")!,
            natGateways: v("vpcNatGateways")!,
        },
        eks: { version, instanceType: v("eksInstanceType")!, minSize: min, maxSize: max, desiredSize: desired },
        ecr: {
            repositoryName: `ingress-controller-${raw.stack}`.toLowerCase().replace(/[^a-z0-9._/-]+/g, "-"),
            imageRetention: v("ecrImageRetention")!,
        },
    };
}

function buildDigitalOcean(raw: RawConfig, r: GetResolved, v: Get): DigitalOceanInfraConfig {
    const envToken = raw.env.DIGITALOCEAN_TOKEN;
    return {
        type: "digitalocean",
        token: secretOutput(r("doToken")) ?? secretOutput({ value: envToken }),
        region: v("doRegion")!,
        k8sVersion: v("doK8sVersion")!,
        instanceSize: v("doInstanceSize")!,
        nodeCount: v("doNodeCount")!,
        registryTier: v("doRegistryTier")!,
    };
}

function buildLinode(raw: RawConfig, r: GetResolved, v: Get, findings: Findings): LinodeInfraConfig {
    for (const id of ["lkeRegion", "lkeK8sVersion"] as const) {
        if (r(id).source === undefined) {
            const legacyKey = KEYS[id].legacy[0]!;
            findings.problem({
                key: legacyName(legacyKey),
                problem: "is not set",
                allowed: KEYS[id].type.allowed,
                fix: `${configSetCommand(KEYS[id].key, KEYS[id].example ?? "<value>")}`,
            });
        }
    }
    return {
        type: "linode",
        token: secretOutput(r("linodeToken")) ?? secretOutput({ value: raw.env.LINODE_TOKEN }),
        region: v("lkeRegion"),
        k8sVersion: v("lkeK8sVersion"),
        instanceType: v("lkeInstanceType")!,
        nodeCount: v("lkeNodeCount")!,
        highAvailability: v("lkeHighAvailability")!,
        harbor: {
            soaEmail: v("harborSoaEmail"),
            instanceType: v("harborInstanceType")!,
            sshKeyPath: v("harborSshKeyPath"),
            adminPassword: secretOutput(r("harborAdminPassword")),
            dbPassword: secretOutput(r("harborDbPassword")),
            sudoPassword: secretOutput(r("harborSudoPassword")),
        },
    };
}

function buildKubeconfig(v: Get, findings: Findings): KubeconfigInfraConfig {
    const kubeconfig = v("kubeconfig");
    if (kubeconfig === undefined) {
        findings.problem({
            key: "kubernetes:kubeconfig",
            problem: "is not set, and an existing cluster is reached only through a kubeconfig",
            allowed: "the path of a kubeconfig file, or its contents",
            fix: `${configSetCommand("kubernetes:kubeconfig", "~/.kube/config")} (or ${KEYS.kubeconfig.key})`,
        });
    }
    return { type: "kubeconfig", kubeconfig, context: v("kubeContext") };
}

function buildKic(r: GetResolved, v: Get, keyOf: KeyOf, findings: Findings): MaraConfig["kic"] {
    // Values that failed to parse are undefined here; their problems are already recorded.
    let imageName = v("kicImageName") ?? "";
    const repo = r("kicImageRepository");
    const tag = r("kicImageTag");
    if (repo.source || tag.source) {
        if (r("kicImageName").source) {
            findings.warn(`${repo.source ?? tag.source} is ignored because ${keyOf("kicImageName")} is set.`);
        } else if (repo.value !== undefined || tag.value !== undefined) {
            const [defaultRepo, defaultTag] = splitImage(imageName);
            imageName = `${repo.value ?? defaultRepo}:${tag.value ?? defaultTag}`;
        }
    }

    const makeTarget = v("kicMakeTarget") ?? "";
    const keyPath = v("kicNginxPlusKeyPath");
    const certPath = v("kicNginxPlusCertPath");
    const origin = v("kicImageOrigin") ?? "registry";
    if (origin === "source" && makeTarget.includes("plus") && (keyPath === undefined || certPath === undefined)) {
        findings.problem({
            key: keyOf("kicMakeTarget"),
            value: makeTarget,
            problem: "builds NGINX Plus, which needs the NGINX Plus repository key and certificate, but they are not configured",
            allowed: "an NGINX Plus target together with both certificate paths, or an open-source target such as debian-image",
            fix: `${configSetCommand(KEYS.kicNginxPlusKeyPath.key, "/etc/ssl/nginx/nginx-repo.key")} && ${configSetCommand(KEYS.kicNginxPlusCertPath.key, "/etc/ssl/nginx/nginx-repo.crt")}`,
        });
    }
    if ((keyPath === undefined) !== (certPath === undefined)) {
        const missing = keyPath === undefined ? "kicNginxPlusKeyPath" : "kicNginxPlusCertPath";
        findings.problem({
            key: KEYS[missing].key,
            problem: "is not set, but its NGINX Plus partner is",
            allowed: "both the key and the certificate path, or neither",
            fix: configSetCommand(KEYS[missing].key, KEYS[missing].example!),
        });
    }
    const plusImage = origin === "source" ? makeTarget.includes("plus") : imageName.includes("plus");
    if (v("ingressEnablePlus") && !plusImage) {
        findings.warn(
            `${keyOf("ingressEnablePlus")} is true but the ingress controller image (${origin === "source" ? `make target ${makeTarget}` : imageName}) ` +
                `is not an NGINX Plus image; the controller will not start in Plus mode.`,
        );
    }
    return {
        imageOrigin: origin,
        imageName,
        makeTarget,
        sourceUrl: v("kicSrcUrl")!,
        alwaysRebuild: v("kicAlwaysRebuild")!,
        nginxPlus: keyPath !== undefined && certPath !== undefined ? { keyPath, certPath } : undefined,
        nginxJwt: secretOutput(r("nginxJwt")),
    };
}

function checkLogstore(v: Get, keyOf: KeyOf, findings: Findings): void {
    const masters = v("logstoreMasterReplicas");
    if (masters !== undefined && masters > 1 && masters % 2 === 0) {
        findings.warn(
            `${keyOf("logstoreMasterReplicas")} = ${masters}: an even number of Elasticsearch masters tolerates no more failures than ${masters - 1}; use an odd number.`,
        );
    }
}

/** A pinned chart older than the one this platform is tested with usually means stale MARA pins. */
function checkChartVersions(r: GetResolved, findings: Findings): void {
    for (const id of Object.keys(CHARTS) as ChartId[]) {
        const configured = r(`${id}ChartVersion`);
        if (!configured.source || configured.value === undefined) continue;
        const tested = CHARTS[id].version;
        if (compareVersions(configured.value, tested) < 0) {
            findings.warn(
                `${configured.source} = ${configured.value} pins an older ${CHARTS[id].chart} chart than the ${tested} this platform ` +
                    `is written and tested for; its values may not apply. Remove the key to use ${tested}.`,
            );
        }
    }
}

/** Compares dotted versions numerically, ignoring a leading "v" and any pre-release suffix. */
export function compareVersions(a: string, b: string): number {
    const parts = (s: string) => s.replace(/^v/, "").split(/[-+]/)[0]!.split(".").map(Number);
    const [pa, pb] = [parts(a), parts(b)];
    for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
        const d = (pa[i] ?? 0) - (pb[i] ?? 0);
        if (d !== 0) return d;
    }
    return 0;
}

function splitImage(image: string): [string, string] {
    const at = image.lastIndexOf(":");
    return at > image.lastIndexOf("/") ? [image.slice(0, at), image.slice(at + 1)] : [image, "latest"];
}

function deepFreeze<T>(value: T): T {
    if (value && typeof value === "object" && !Object.isFrozen(value) && !isOutput(value)) {
        Object.freeze(value);
        for (const child of Object.values(value as object)) deepFreeze(child);
    }
    return value;
}

function isOutput(value: unknown): boolean {
    return typeof value === "object" && value !== null && "__pulumiOutput" in value;
}
