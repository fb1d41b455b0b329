/**
 * Turns raw config into the typed `MaraConfig`, checking types, ranges, enums and the rules that span
 * several keys. Pure and total: it returns every problem it finds instead of stopping at the first, so
 * `mara validate` can list them all and `loadConfig` can fail before any resource exists.
 */
import { CHART_IDS, CHARTS, ChartId, ChartSettings, HOST_PATH_ALLOWED, hostPathProblem, INFRA_TYPES } from "../contracts";
import { admissionPoliciesSettings, checkAdmissionPolicies } from "../components/admissionPolicies/settings";
import { alertingOf, checkAlertingSettings } from "./alerting";
import { checkAcmeHostname, checkAcmeHostPublished, publishesHostname } from "./certificateNames";
import { chartArchiveProblems, lookUpChartArchives } from "./chartArchives";
import { checkChartVersions } from "./chartVersions";
import { checkClusterAddOns } from "./clusterAddOns";
import { checkClusterVersion } from "./clusterVersions";
import { checkLegacyObjects } from "./legacyObjects";
import { checkKeyNamespaces } from "./keyNamespaces";
import { checkGitOpsSettings, gitopsKeyUnread, repositoryCredentialsOf } from "./gitops";
import { checkOperatorSettings, pulumiOperatorSettings } from "../components/pulumiOperator/settings";
import { argoCdSettings } from "../components/argoCd/settings";
import { checkProviderKeys } from "./providerKeys";
import { resolveLocalPath } from "./localPaths";
import { Redactor } from "./redact";
import { checkSecureValues } from "./secureValues";
import { checkVolumeSizes } from "./volumeSizes";
import {
    DefaultedKeyId,
    DefaultedKeySpec,
    INFORMATIONAL_KEYS,
    KEYS,
    KeyId,
    KeySpec,
    KeyValue,
    LEGACY_CHART_NAME_KEYS,
    MARA_NAMESPACES,
    PROJECT_NAMESPACE,
} from "./keys";
import { buildInfra, checkHarborKeys } from "./infraSettings";
import { buildKic, checkIngressControllerImage, checkSourceBuildRegistry, checkUnusedNginxPlusKeys, ingressControllerReleaseSettings, nginxPlusKeyUnused, PathKind, pathKindOf } from "../components/ingressController/settings";
import type { Get, GetDefaulted, KeyOf, Lookup } from "./lookup";
import type { MaraConfig } from "./model";
import { ConfigProblem, configSetCommand } from "./problems";
import { Findings, RawConfig, refusedByCli, resolve, Resolved } from "./resolve";
import { closest } from "./suggest";
import { listCapped } from "./capped";
import { certManagerSettings, checkCertManagerKeys } from "../components/certManager/settings";
import { prometheusSettings } from "../components/prometheus/settings";
import { observabilitySettings } from "../components/observability/settings";
import { checkLogstoreKeys, logstoreSettings } from "../components/logstore/settings";
import { logAgentSettings } from "../components/logAgent/settings";
import { applicationSettings, checkApplicationKeys } from "../components/application/settings";

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
const KNOWN_KEY_SET: ReadonlySet<string> = new Set(KNOWN_KEYS);
/** The key a typo's guess should name: the current name of a renamed key's earlier name, else the key itself. */
export function currentKeyName(key: string): string {
    return (Object.values(KEYS) as KeySpec<unknown>[]).find((s) => s.legacy.some((l) => l.renamedIn && l.key === key))?.key ?? key;
}

/** Validates raw config; see the module comment. */
export function validateConfig(given: RawConfig): ValidationResult {
    // Every message passes the stack's secrets through the redactor before anyone sees it.
    const findings = new Findings(Redactor.of(given));
    for (const w of given.stackFile?.warnings ?? []) findings.warn(`The stack file, ${w}: the value is read as written.`);
    const raw = checkSecureValues(given, findings);
    const today = checkDay(raw, findings);
    checkKeyNames(raw, findings);
    checkLegacyObjects(raw, findings);
    checkProviderKeys(raw, KNOWN_KEYS, findings);
    checkKeyNamespaces(raw, KNOWN_KEYS, findings);
    const ignoredLegacyCharts = legacyChartsToIgnore(raw, findings);

    const resolved = new Map<KeyId, Resolved<unknown>>();
    // What a key that does nothing on this stack would report goes nowhere: a value nothing reads is named as unused
    // (below), never both unused and wrong.
    const unread = new Findings(Redactor.of(given));
    const r = <K extends KeyId>(id: K): Resolved<KeyValue<K>> => {
        let hit = resolved.get(id);
        if (!hit) {
            const chartId = chartOf(id);
            hit = resolve<unknown>(raw, KEYS[id] as KeySpec<unknown>, ignored(id) ? unread : findings, {
                ignoreLegacy: chartId !== undefined && ignoredLegacyCharts.has(chartId),
                infraType: id === "infraType" ? undefined : (r("infraType").value as string | undefined),
            });
            resolved.set(id, hit);
        }
        return hit as Resolved<KeyValue<K>>;
    };
    /** Whether nothing reads `id` on this stack: another infrastructure type's key, or one another key overrides. */
    const ignored = (id: KeyId): boolean => {
        if (id === "infraType") return false;
        if (notUsedOn(id, r("infraType").value)) return true;
        // GitOps keys while the platform is Pulumi's, Argo CD's install keys while Argo CD runs elsewhere (gitops.ts).
        if (gitopsKeyUnread(id, () => d("delivery"), () => d("gitopsArgoCd"))) return true;
        // The NGINX Plus keys are read only for NGINX Plus: its image pulled, built or run (components/ingressController/settings.ts).
        if (nginxPlusKeyUnused(id, { r, d })) return true;
        // MARA's repository and tag keys make up the image only when no image name is set (components/ingressController/settings.ts says so).
        return (id === "ingressImageRepository" || id === "ingressImageTag") && r("ingressImageName").source !== undefined;
    };
    const v = <K extends KeyId>(id: K) => r(id).value;
    const d: GetDefaulted = <K extends DefaultedKeyId>(id: K) => v(id) ?? (KEYS[id] as DefaultedKeySpec<KeyValue<K>>).default;
    /** The key to name in a message about `id`: the one the user set, else the canonical key. */
    const keyOf = (id: KeyId) => r(id).source ?? KEYS[id].key;

    // Resolve every key up front so that type problems are reported even for unused sections.
    for (const id of Object.keys(KEYS) as KeyId[]) r(id);
    // A key Pulumi.yaml declares with a type is refused by the CLI, before the program runs, when its value does not
    // fit, whether or not anything reads it: so validation refuses it too (test/program/cliConfig.test.ts).
    for (const id of Object.keys(KEYS) as KeyId[]) {
        const spec = KEYS[id] as KeySpec<unknown>;
        const value = raw.values[spec.key];
        const refusal = ignored(id) && value !== undefined ? refusedByCli(spec, value) : undefined;
        if (refusal) {
            findings.problem({
                key: spec.key,
                value,
                problem: `is refused by the Pulumi CLI before the program starts, because Pulumi.yaml declares ${spec.key} as ${refusal} (even though this stack does not use the key)`,
                allowed: spec.type.pulumiType === "boolean" ? "exactly true or false" : "digits only, optionally signed",
                fix: `pulumi config rm ${spec.key}`,
            });
        }
    }

    const infraType = v("infraType");
    if (r("infraType").source === undefined) {
        findings.problem({
            key: "kubernetes:infra_type",
            problem: "is not set",
            allowed: `one of ${INFRA_TYPES.map((t) => `"${t}"`).join(", ")} (MARA's AWS, DO and LKE also work)`,
            fix: `${configSetCommand("kubernetes:infra_type", "aws")} (or ${KEYS.infraType.key})`,
        });
    }

    if (infraType) checkUnusedKeys(infraType, r, keyOf, findings);
    checkHarborKeys({ r, v, d, keyOf }, findings);
    checkUnusedNginxPlusKeys({ r, v, d, keyOf }, findings);
    const clusterName = checkClusterName(raw, infraType, r("clusterName"), findings);
    const infra = infraType ? buildInfra(infraType, raw, { r, v, d, keyOf }, findings, today) : undefined;
    checkFqdnRequired(infraType, r("fqdn"), findings);
    checkNodePort(infraType, d("ingressServiceType"), r("fqdn"), keyOf("ingressServiceType"), publishesHostname(infraType, d("delivery")), findings);
    if (infraType) checkVolumeSizes(infraType, r("storageClass").source !== undefined, v, keyOf, findings);
    // Source paths resolve as every other local path: against the project directory, `~` from HOME.
    const kic = buildKic({ r, v, d, keyOf }, findings, { env: raw.env, cwd: raw.baseDir, home: raw.env.HOME, kind: kindFrom(raw) });
    checkIngressControllerImage(kic, d("ingressChartVersion"), { r, v, d, keyOf }, findings);
    if (infra) checkClusterVersion(infra, keyOf, today, findings);
    const admissionScope = checkAdmissionPolicies({ r, v, d, keyOf }, infraType, infra, findings);
    checkLogstoreKeys({ v, keyOf }, findings);
    checkChartVersions(r, findings, ignored);
    checkCertManagerKeys({ r, v, keyOf }, findings);
    checkAcmeHostname(d("tlsIssuer"), v("siriusHostname") ?? v("fqdn"), keyOf(v("siriusHostname") !== undefined ? "siriusHostname" : "fqdn"), keyOf("tlsIssuer"), findings);
    checkAcmeHostPublished(publishesHostname(infra?.type, d("delivery")), d("tlsIssuer"), { fqdn: v("fqdn"), fqdnKey: keyOf("fqdn"), hostname: v("siriusHostname"), hostnameKey: keyOf("siriusHostname") }, findings);
    checkApplicationKeys({ d, keyOf }, findings);
    checkHostPaths(v, keyOf, findings);
    checkTeardown(infraType, v, keyOf, findings);
    checkGitOps({ r, v, d, keyOf }, findings);
    checkAlertingSettings({ r, v, d, keyOf }, findings);
    // MetalLB's and the NFS provisioner's charts are installed only when asked for; Argo CD's only when Argo CD runs in the cluster it delivers to.
    const wanted = (id: ChartId) =>
        id === "metallb"
            ? (v("metallbAddresses") ?? []).length > 0
            : id === "nfs"
              ? v("nfsServer") !== undefined
              : id === "argoCd"
                ? d("delivery") === "gitops" && d("gitopsArgoCd") === "install"
                : id === "pulumiOperator"
                  ? d("delivery") === "operator"
                  : true;

    checkSourceBuildRegistry(kic, infra, { r, keyOf }, findings);
    if (findings.problems.length > 0 || !infra) {
        return { problems: findings.problems, warnings: findings.warnings };
    }

    const archives = chartArchivesOf(raw, v("chartArchiveDir"), keyOf("chartArchiveDir"), d, findings, CHART_IDS.filter(wanted));
    if (findings.problems.length > 0) return { problems: findings.problems, warnings: findings.warnings };
    const chart = (id: ChartId): ChartSettings => ({
        chart: CHARTS[id].chart,
        version: d(`${id}ChartVersion`),
        repositoryUrl: d(`${id}HelmRepoUrl`),
        timeoutSeconds: d(`${id}HelmTimeout`),
        ...(archives ? { archive: archives.get(CHARTS[id].chart) } : {}),
    });

    const addOns = checkClusterAddOns(infra.type, { r, v, d, keyOf }, { metallb: chart("metallb"), nfs: chart("nfs"), nfsImage: d("nfsProvisionerImage") }, findings);
    if (findings.problems.length > 0) return { problems: findings.problems, warnings: findings.warnings };

    const logAgent = logAgentSettings(chart("logagent"));
    const ingress = ingressControllerReleaseSettings({ d }, chart("ingress"));
    const application = applicationSettings({ r, v, d }, chart("postgresExporter"));
    const argoCd = argoCdSettings(chart("argoCd"));
    const pulumiOperator = pulumiOperatorSettings({ r, v, d }, chart("pulumiOperator"));
    const config: MaraConfig = {
        project: raw.project,
        stack: raw.stack,
        clusterName,
        fqdn: v("fqdn"),
        storageClass: v("storageClass"),
        infra,
        ingressController: { ...ingress, image: kic },
        // The section's names before 0.2.0 (deprecated): the image, and the release.
        kic,
        ingress,
        platformOverrides: { containerLogPath: v("containerLogPath") },
        ...addOns,
        admissionPolicies: admissionPoliciesSettings({ d }, admissionScope),
        guardrails: { admissionPolicies: d("admissionPolicies"), scope: admissionScope },
        teardown: {
            retainVolumes: d("retainVolumes"),
            protectData: d("protectData"),
            removeCrds: v("removeCrds") ?? infra.type !== "kubeconfig",
            drainTimeoutMinutes: d("drainTimeoutMinutes"),
        },
        certManager: certManagerSettings({ v, d }, chart("certManager")),
        logstore: logstoreSettings({ d }, chart("logstore")),
        logAgent,
        logagent: logAgent,
        prometheus: prometheusSettings({ r, d }, { chart: chart("prometheus"), statsdChart: chart("statsd") }),
        alerting: alertingOf({ r, v, d }),
        observability: observabilitySettings({ d }, chart("otelOperator")),
        gitops: {
            delivery: d("delivery"),
            repoUrl: v("gitopsRepoUrl"),
            revision: d("gitopsRevision"),
            path: v("gitopsPath"),
            argoCd: d("gitopsArgoCd"),
            fleet: gitopsKeyUnread("gitopsFleet", () => d("delivery"), () => d("gitopsArgoCd")) ? undefined : v("gitopsFleet"),
            repository: repositoryCredentialsOf({ r, d }),
            // The add-ons' settings under their names before 0.2.0 (deprecated): the same objects.
            argoCdChart: argoCd.chart,
            operatorChart: pulumiOperator.chart,
            operator: pulumiOperator.stack,
        },
        argoCd,
        pulumiOperator,
        application,
        // The section's name before 0.2.0 (deprecated).
        sirius: application,
    };
    return { config: deepFreeze(config), problems: [], warnings: findings.warnings };
}


/** Whether a stack of `infraType` reads nothing from `id` (its key table entry names the types that do). */
function notUsedOn(id: KeyId, infraType: string | undefined): boolean {
    const usedOn = (KEYS[id] as KeySpec<unknown>).usedOn;
    return infraType !== undefined && usedOn !== undefined && !(usedOn as readonly string[]).includes(infraType);
}

/**
 * Keys of another infrastructure type set on this stack (registry keys on AWS, VPC and EKS keys on an existing
 * cluster, a DigitalOcean token on AWS) do nothing here; they are named in one warning, with the types that read
 * them. MARA's Harbor keys, which nothing reads any more, have their own (checkHarborKeys).
 */
function checkUnusedKeys(infraType: string, r: <K extends KeyId>(id: K) => Resolved<KeyValue<K>>, keyOf: (id: KeyId) => string, findings: Findings): void {
    const byTypes = new Map<string, string[]>();
    for (const id of Object.keys(KEYS) as KeyId[]) {
        const usedOn = (KEYS[id] as KeySpec<unknown>).usedOn;
        if (!notUsedOn(id, infraType) || usedOn === undefined || usedOn.length === 0 || r(id).source === undefined) continue;
        const types = usedOn.join(" and ");
        byTypes.set(types, [...(byTypes.get(types) ?? []), keyOf(id)]);
    }
    if (byTypes.size === 0) return;
    const list = [...byTypes].map(([types, keys]) => `${keys.join(", ")} (read on ${types} only)`).join("; ");
    findings.warn(
        `Not used on this ${infraType} stack, so their values are not checked and change nothing: ${list}. ` +
            `Remove them with pulumi config rm <key>, or keep them for a stack of the type that reads them.`,
    );
}

function chartOf(id: KeyId): ChartId | undefined {
    const stem = /^(\w+?)(ChartVersion|HelmRepoUrl)$/.exec(id)?.[1];
    return CHART_IDS.find((c) => c === stem);
}

/** Unknown keys in namespaces we own are typos until proven otherwise. */
function checkKeyNames(raw: RawConfig, findings: Findings): void {
    const dotted: { key: string; name: string; meant: string }[] = [];
    const unknownOwn: string[] = [];
    const unknownMara: string[] = [];
    for (const key of Object.keys(raw.values)) {
        const name = key.slice(key.indexOf(":") + 1);
        const [, dottedNs, dottedName] = /^([a-z-]+)\.(\w+)$/.exec(name) ?? [];
        // The CLI files a key written without a colon under the project; MARA's example has one such typo.
        if (key.startsWith(`${PROJECT_NAMESPACE}:`) && dottedNs !== undefined && (MARA_NAMESPACES as readonly string[]).includes(dottedNs)) {
            dotted.push({ key, name, meant: `${dottedNs}:${dottedName}` });
            continue;
        }
        const ns = key.slice(0, key.indexOf(":"));
        if (!(MARA_NAMESPACES as readonly string[]).includes(ns) || KNOWN_KEY_SET.has(key)) continue;
        (ns === PROJECT_NAMESPACE ? unknownOwn : unknownMara).push(key);
    }
    const hint = (key: string) => {
        const near = closest(key, KNOWN_KEYS);
        const guess = near && currentKeyName(near);
        return guess ? `did you mean ${guess}?` : "see the configuration reference, docs/configuration.md";
    };
    listCapped(
        dotted,
        (d) => d.key,
        ({ key, name, meant }) =>
            findings.warn(`"${name}" is ignored: it has a dot where a colon belongs, so Pulumi files it under the project as ${key}` + (KNOWN_KEY_SET.has(meant) ? `; write it as ${meant}.` : ".")),
        (n, some) => findings.warn(`${n} more keys have a dot where a colon belongs and are ignored (${some}).`),
    );
    // The key name is enough to act on, and a misspelled secret key holds a secret: never show the value.
    listCapped(
        unknownOwn,
        (k) => k,
        (key) =>
            findings.problem({
                key,
                problem: "is not a setting this program knows",
                allowed: "the keys listed in docs/configuration.md and Pulumi.yaml",
                fix: `${hint(key)} Remove it with: pulumi config rm ${key}`,
            }),
        (n, some) =>
            findings.problem({
                key: `${n} more keys of the ${PROJECT_NAMESPACE} namespace`,
                problem: `are not settings this program knows either (${some})`,
                allowed: "the keys listed in docs/configuration.md and Pulumi.yaml",
                fix: `remove each with: pulumi config rm <key>`,
            }),
    );
    listCapped(
        unknownMara,
        (k) => k,
        (key) => findings.warn(`${key} is not a setting this program reads and is ignored; ${hint(key)}`),
        (n, some) => findings.warn(`${n} more keys in MARA's namespaces are not settings this program reads and are ignored (${some}).`),
    );
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
    for (const id of CHART_IDS) {
        const name = named.get(id);
        const maraChart = CHARTS[id].maraChart;
        if (name !== undefined ? name !== CHARTS[id].chart : maraChart !== undefined) ignored.add(id);
    }
    return ignored;
}

function defaultClusterName(stack: string, max: number): string {
    const base = `mara-${stack}`.toLowerCase().replace(/[^a-z0-9-]+/g, "-").replace(/-+/g, "-");
    return base.slice(0, max).replace(/-+$/, "");
}

function checkClusterName(
    raw: RawConfig,
    infraType: string | undefined,
    name: Resolved<string>,
    findings: Findings,
): string {
    // An existing cluster keeps whatever name it has (the name only labels the stack's provider, up to 100 characters);
    // clusters we create must fit every cloud's naming rules (LKE labels are the shortest, 32 characters).
    const max = infraType === "linode" ? 32 : infraType === "kubeconfig" ? 100 : 40;
    const value = name.value ?? defaultClusterName(raw.stack, Math.min(max, 40));
    const fits = infraType === "kubeconfig" ? value.length <= max : new RegExp(`^[a-z0-9]([-a-z0-9]{0,${max - 2}}[a-z0-9])?$`).test(value);
    if (infraType && !fits) {
        findings.problem({
            key: name.source ?? "mara:clusterName",
            value,
            problem: infraType === "kubeconfig" ? `is ${value.length} characters long` : value.length > max ? `is ${value.length} characters long, too long to name a new cluster` : "cannot name a new cluster",
            allowed:
                infraType === "kubeconfig"
                    ? `any text up to ${max} characters (the stack's label for the existing cluster)`
                    : `lower-case letters, digits and '-', starting and ending with a letter or digit, at most ${max} characters`,
            fix: configSetCommand(name.source ?? "mara:clusterName", defaultClusterName(raw.stack, Math.min(max, 40))),
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

/**
 * A NodePort controller has no load balancer whose name the application could take, so it needs the name that points
 * at the nodes (the IngressController component refuses it without one). Only AWS can leave mara:fqdn unset otherwise;
 * elsewhere its absence is already a problem.
 */
function checkNodePort(infraType: string | undefined, serviceType: string, fqdn: Resolved<string>, key: string, publishes: boolean, findings: Findings): void {
    if (serviceType === "NodePort" && publishes) {
        // The program points mara:fqdn at the load balancer's IP (index.ts, publishHostname), and throws when there is
        // none: the run would fail halfway, after the cluster and the platform exist.
        findings.problem({
            key,
            value: "NodePort",
            problem: `has no load balancer, and on ${infraType} the platform points ${fqdn.source ?? KEYS.fqdn.key} at the load balancer's IP with a DNS record, so pulumi up would fail when it creates the record`,
            allowed: `LoadBalancer on ${infraType}`,
            fix: configSetCommand(key, "LoadBalancer"),
        });
        return;
    }
    if (infraType !== "aws" || serviceType !== "NodePort" || fqdn.source !== undefined) return;
    findings.problem({
        key,
        value: "NodePort",
        problem: "has no load balancer whose host name the platform could use, and kic-helm:fqdn (mara:fqdn), the name that points at the nodes, is not set",
        allowed: "LoadBalancer, or NodePort together with mara:fqdn",
        fix: `${configSetCommand(KEYS.fqdn.key, "mara.example.com")} (a name whose DNS points at the nodes), or ${configSetCommand(key, "LoadBalancer")}`,
    });
}

/** On a cluster the stack did not create, the drain removes nothing: asking it to remove CRDs there is a mistake. */
function checkTeardown(infraType: string | undefined, v: Get, keyOf: KeyOf, findings: Findings): void {
    if (infraType === "kubeconfig" && v("removeCrds") === true) {
        findings.problem({
            key: keyOf("removeCrds"),
            value: "true",
            problem: "asks destroy to remove CRDs from an existing cluster, which the program never does: other workloads there may use the same CRDs, and deleting a CRD deletes every object of its kind",
            allowed: "false, or leaving it unset, on an existing cluster (kubeconfig)",
            fix: `pulumi config rm ${keyOf("removeCrds")}; remove a CRD you are sure is unused yourself with kubectl delete crd <name>`,
        });
    }
}

/** What is at a path, for the image settings, from the configuration's view of local files (when it has one). */
function kindFrom(raw: RawConfig): ((p: string) => PathKind) | undefined {
    const inspect = raw.inspectPath;
    if (!inspect) return undefined;
    return (p) => pathKindOf(inspect(p));
}

/**
 * The day the configuration is checked for: `today` when given, else MARA_TODAY (YYYY-MM-DD) from the
 * environment — to ask whether a stack will still deploy on a planned day, and to keep tests stable — else now.
 */
function checkDay(raw: RawConfig, findings: Findings): Date {
    if (raw.today) return raw.today;
    const env = raw.env.MARA_TODAY;
    if (env === undefined || env === "") return new Date();
    const day = /^\d{4}-\d{2}-\d{2}$/.test(env.trim()) ? new Date(`${env.trim()}T00:00:00Z`) : new Date(NaN);
    if (!Number.isNaN(day.getTime())) return day;
    findings.problem({ key: "MARA_TODAY", value: env, problem: "is not a date", allowed: "a day as YYYY-MM-DD, such as 2027-01-15", fix: "export MARA_TODAY=2027-01-15, or unset it to check for today" });
    return new Date();
}

/** Host directories the log agent mounts must be safe to mount (contracts: hostPathProblem). */
function checkHostPaths(v: Get, keyOf: KeyOf, findings: Findings): void {
    const path = v("containerLogPath");
    const why = path === undefined ? undefined : hostPathProblem(path);
    if (path === undefined || !why) return;
    findings.problem({
        key: keyOf("containerLogPath"),
        value: path,
        problem: `${why}; the log agent mounts it from every node`,
        allowed: HOST_PATH_ALLOWED,
        fix: `${configSetCommand(keyOf("containerLogPath"), "/var/log/containers")}, or remove it to use the platform's`,
    });
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

/**
 * The archive of every chart `ids` names from `mara:chartArchiveDir`, or undefined when the key is not set. Each
 * of the stack's charts must be there, hold the pinned chart and version, and match its digest: a stack that installs
 * from archives never falls back to a network.
 */
function chartArchivesOf(raw: RawConfig, dir: string | undefined, key: string, d: GetDefaulted, findings: Findings, ids: readonly ChartId[]): ReadonlyMap<string, string> | undefined {
    if (dir === undefined) return undefined;
    const absolute = resolveLocalPath(dir, raw.baseDir ?? process.cwd(), raw.env);
    // Only the charts this stack installs: MetalLB's archive is needed only when asked for, Argo CD's only when Pulumi installs Argo CD.
    const pins = ids.map((id) => ({ chart: CHARTS[id].chart, version: d(`${id}ChartVersion`), repositoryUrl: d(`${id}HelmRepoUrl`) }));
    const found = lookUpChartArchives(absolute, pins);
    if (found.ok) return found.archives;
    for (const p of chartArchiveProblems(found.problems, key, dir, absolute)) findings.problem(p);
    return undefined;
}

/**
 * GitOps delivery needs the repository Argo CD reads the render from, and a host name known before Argo CD syncs
 * anything: Pulumi no longer creates the load balancer, so it cannot read its address for the application's host.
 */
function checkGitOps(k: Lookup, findings: Findings): void {
    checkGitOpsSettings(k, findings);
    checkOperatorSettings(k, findings);
    const delivery = k.d("delivery");
    if (delivery === "pulumi") return;
    for (const id of ["gitopsRepoUrl", "gitopsPath"] as const) {
        // Set, even to a value that did not parse (that has its own problem), is not "not set".
        if (k.r(id).source !== undefined) continue;
        findings.problem({
            key: KEYS[id].key,
            problem: `is not set, and ${k.keyOf("delivery")} is ${delivery}`,
            allowed: KEYS[id].type.allowed,
            fix: configSetCommand(KEYS[id].key, KEYS[id].example ?? ""),
        });
    }
    if (delivery === "gitops" && k.v("siriusHostname") === undefined && k.v("fqdn") === undefined) {
        findings.problem({
            key: KEYS.fqdn.key,
            problem: `is not set, and ${k.keyOf("delivery")} is gitops: Pulumi no longer creates the ingress load balancer, so the application's host cannot be its address`,
            allowed: "the public host name the platform is served on",
            fix: configSetCommand(KEYS.fqdn.key, "mara.example.com"),
        });
    }
}