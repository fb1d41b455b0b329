/** Validation and typed settings of each infrastructure type (AWS, DigitalOcean, Linode, existing cluster). */
import { DEFAULTS, defaultDesiredSize } from "../contracts";
import { KEYS, KeyValue } from "./keys";
import type { InfraType } from "../contracts";
import type { AwsInfraConfig, DigitalOceanInfraConfig, ExternalRegistryConfig, InfraConfig, InfraConfigOf, KubeconfigInfraConfig, LinodeInfraConfig } from "./model";
import { configSetCommand } from "./problems";
import { Findings, legacyName, RawConfig, secretOutput } from "./resolve";
import type { Lookup } from "./lookup";
import { availabilityZoneProblem } from "./zones";
import { AVAILABILITY_ZONES_SOURCE, availabilityZonesOf } from "./availabilityZones";
import { checkKubeconfig } from "./kubeconfigFile";
import { suggestedMinor } from "./kubernetesReleases";
import { isInlineKubeconfig } from "./redact";
import { ENCRYPTED_PLACEHOLDER } from "./stackFile";
import { PASSPHRASE_ENV, PASSPHRASE_FILE_ENV } from "./passphraseSecrets";
import { ciphertextProblem } from "./secureValues";
import { dropletSizeFinding, ec2InstanceTypeFinding, NodeSizeFinding } from "./nodeSizes";

/** Builds the settings of the configured infrastructure type, recording its problems. */
export function buildInfra(type: NonNullable<KeyValue<"infraType">>, raw: RawConfig, keys: Lookup, findings: Findings, today: Date): InfraConfig | undefined {
    return BUILDERS[type](raw, keys, findings, today);
}

/**
 * Builds one infrastructure type's settings; undefined when a setting it needs is missing or invalid (a problem says
 * which). `today` is the day the configuration is checked for: a fix hint suggests only what the cloud offers then.
 */
type InfraBuilder<T extends InfraType> = (raw: RawConfig, keys: Lookup, findings: Findings, today: Date) => InfraConfigOf<T> | undefined;

const BUILDERS: { readonly [T in InfraType]: InfraBuilder<T> } = {
    aws: buildAws,
    digitalocean: buildDigitalOcean,
    linode: buildLinode,
    kubeconfig: buildKubeconfig,
};

function buildAws(raw: RawConfig, { r, v, d, keyOf }: Lookup, findings: Findings): AwsInfraConfig | undefined {
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

    if (!azs && region && r("vpcAzs").source === undefined) {
        // Without a list, the VPC takes the region's first zones; the region must have as many as asked for.
        const zones = availabilityZonesOf(region);
        const count = d("vpcAzCount");
        if (count > zones.length) {
            findings.problem({
                key: keyOf("vpcAzCount"),
                value: String(count),
                problem: `asks for ${count} availability zones${r("vpcAzCount").source ? "" : " (the default)"}, and ${region} has ${zones.length} a new VPC can use (${zones.join(", ")})`,
                allowed: `${zones.length === 2 ? "2" : `a whole number from 2 to ${zones.length}`} in ${region} (${AVAILABILITY_ZONES_SOURCE}), or the zones your account has listed in mara:vpcAzs`,
                fix: `${configSetCommand(KEYS.vpcAzCount.key, String(zones.length))}, or list the zones \`aws ec2 describe-availability-zones --region ${region}\` shows in mara:vpcAzs`,
            });
        }
    }

    checkNodeSize(keyOf("eksInstanceType"), v("eksInstanceType"), ec2InstanceTypeFinding, DEFAULTS.eks.instanceType, findings);

    // Whether EKS creates this version is checked against its calendar (clusterVersions.ts).
    const version = v("eksVersion");

    const min = v("eksMinSize");
    const max = v("eksMaxSize");
    if (min !== undefined && max !== undefined && min > max) {
        findings.problem({
            key: keyOf("eksMinSize"),
            value: String(min),
            problem: `is greater than ${keyOf("eksMaxSize")} (${max})`,
            allowed: `a minimum no greater than the maximum`,
            fix: `lower ${keyOf("eksMinSize")} or raise ${keyOf("eksMaxSize")}, e.g. ${configSetCommand(keyOf("eksMaxSize"), String(Math.max(min, DEFAULTS.eks.maxSize)))}`,
        });
    }
    let desired = v("eksDesiredCapacity");
    if (min !== undefined && max !== undefined && min <= max) {
        if (desired === undefined && r("eksDesiredCapacity").source === undefined) {
            desired = defaultDesiredSize(min, max);
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
            cidr: d("vpcCidr"),
            availabilityZones: azs,
            availabilityZoneCount: azs?.length ?? d("vpcAzCount"),
            natGateways: d("vpcNatGateways"),
        },
        eks: { version, instanceType: d("eksInstanceType"), minSize: min, maxSize: max, desiredSize: desired },
        ecr: {
            repositoryName: `ingress-controller-${raw.stack}`.toLowerCase().replace(/[^a-z0-9._/-]+/g, "-"),
            imageRetention: d("ecrImageRetention"),
        },
    };
}

/** Records a set node size that the provider SDK's list refutes: an error, or a warning where the SDK may lag the cloud. */
function checkNodeSize(key: string, value: string | undefined, finding: (v: string) => NodeSizeFinding | undefined, example: string, findings: Findings): void {
    const found = value === undefined ? undefined : finding(value);
    if (!found) return;
    if (found.severity === "warning") findings.warn(`${key} = ${value}: ${found.problem}.`);
    else findings.problem({ key, value, problem: found.problem, allowed: found.allowed, fix: configSetCommand(key, found.suggestion ?? example) });
}

function buildDigitalOcean(raw: RawConfig, { r, v, d, keyOf }: Lookup, findings: Findings): DigitalOceanInfraConfig {
    const token = secretOutput(r("doToken")) ?? secretOutput({ value: raw.env.DIGITALOCEAN_TOKEN });
    // A token that is set but refused has its own problem; it is not also "not set".
    if (!token && r("doToken").source === undefined) findings.warn(missingToken("DigitalOcean", "digitalocean:token", "DIGITALOCEAN_TOKEN"));
    const fqdn = v("fqdn");
    if (fqdn !== undefined && fqdn.split(".").length < 3) {
        findings.problem({
            key: keyOf("fqdn"),
            value: fqdn,
            problem: "has no host part: the DNS record is created as <host> in the DigitalOcean domain <rest of the name>",
            allowed: "a host name in a domain managed by DigitalOcean, such as mara.example.com",
            fix: configSetCommand(keyOf("fqdn"), `mara.${fqdn}`),
        });
    }
    checkNodeSize(keyOf("doInstanceSize"), v("doInstanceSize"), dropletSizeFinding, DEFAULTS.doks.nodeSize, findings);
    const adopt = d("doRegistryAdopt");
    if (adopt && r("doRegistryName").source === undefined) {
        findings.problem({
            key: keyOf("doRegistryAdopt"),
            value: "true",
            problem: "adopts the account's registry but does not say which: mara:doRegistryName is not set",
            allowed: "the name of the account's existing registry in mara:doRegistryName",
            fix: `${configSetCommand(KEYS.doRegistryName.key, "<name shown by: doctl registry get>")}`,
        });
    }
    return {
        type: "digitalocean",
        token,
        region: d("doRegion"),
        k8sVersion: d("doK8sVersion"),
        instanceSize: d("doInstanceSize"),
        nodeCount: d("doNodeCount"),
        registryTier: d("doRegistryTier"),
        registryName: v("doRegistryName"),
        adoptRegistry: adopt,
    };
}

function buildLinode(raw: RawConfig, keys: Lookup, findings: Findings, today: Date): LinodeInfraConfig | undefined {
    const { r, v, d } = keys;
    for (const id of ["lkeRegion", "lkeK8sVersion"] as const) {
        if (r(id).source === undefined) {
            const legacyKey = KEYS[id].legacy[0];
            // The version to suggest is one LKE offers on that day, not a fixed example that may have reached its end of life.
            const example = id === "lkeK8sVersion" ? suggestedMinor(today, DEFAULTS.eks.version) : KEYS[id].example;
            findings.problem({
                key: legacyKey ? legacyName(legacyKey) : KEYS[id].key,
                problem: "is not set",
                allowed: KEYS[id].type.allowed,
                fix: example === undefined ? `choose a version \`linode-cli lke versions-list\` lists and ${configSetCommand(KEYS[id].key, "<version>")}` : configSetCommand(KEYS[id].key, example),
            });
        }
    }
    const token = secretOutput(r("linodeToken")) ?? secretOutput({ value: raw.env.LINODE_TOKEN });
    if (!token && r("linodeToken").source === undefined) findings.warn(missingToken("Linode", "linode:token", "LINODE_TOKEN"));
    const region = v("lkeRegion");
    const k8sVersion = v("lkeK8sVersion");
    const registry = externalRegistry(keys, findings);
    if (region === undefined || k8sVersion === undefined) return undefined;
    return {
        type: "linode",
        token,
        region,
        k8sVersion,
        instanceType: d("lkeInstanceType"),
        nodeCount: d("lkeNodeCount"),
        highAvailability: d("lkeHighAvailability"),
        registry,
    };
}

function buildKubeconfig(raw: RawConfig, keys: Lookup, findings: Findings): KubeconfigInfraConfig | undefined {
    const { r, v, keyOf } = keys;
    const kubeconfig = v("kubeconfig");
    // Set but refused, its problem is already reported: it is not also "not set".
    if (kubeconfig === undefined) {
        if (r("kubeconfig").source === undefined) {
            findings.problem({
                key: "kubernetes:kubeconfig",
                problem: "is not set, and an existing cluster is reached only through a kubeconfig",
                allowed: "the path of a kubeconfig file, or its contents",
                fix: `${configSetCommand("kubernetes:kubeconfig", "~/.kube/config")} (or ${KEYS.kubeconfig.key})`,
            });
        }
    } else if (kubeconfig === ENCRYPTED_PLACEHOLDER) {
        sealedKubeconfig(raw, keyOf("kubeconfig"), findings);
    } else {
        const context = v("kubeContext");
        const checked = checkKubeconfig(kubeconfig, context, { baseDir: raw.baseDir ?? process.cwd(), env: raw.env, inspect: raw.inspectPath }, {
            kubeconfig: keyOf("kubeconfig"),
            context: keyOf("kubeContext"),
        });
        if (checked.ok) {
            plainTextCredentials(raw, keyOf("kubeconfig"), checked.value.file === undefined ? checked.value.credentials : [], findings);
        } else {
            const { setting, problem, allowed, fix } = checked.problem;
            const onContext = setting === "context";
            findings.problem({
                key: onContext ? keyOf("kubeContext") : keyOf("kubeconfig"),
                // An inline kubeconfig is a credential and never appears in a message.
                value: onContext ? context : isKubeconfigPath(kubeconfig) ? kubeconfig : undefined,
                problem,
                allowed,
                fix,
            });
        }
    }
    const registry = externalRegistry(keys, findings);
    if (kubeconfig === undefined) return undefined;
    return { type: "kubeconfig", kubeconfig, context: v("kubeContext"), registry };
}

/**
 * A kubeconfig stored encrypted that is still encrypted here: offline, without the stack's passphrase (or with
 * another secrets provider), nothing can decrypt it, so its contents are checked where they are decrypted (the
 * program, under `pulumi preview` and `pulumi up`), and the stack is not refused for storing a credential as it
 * should be. Where Pulumi itself would stop before the program (a passphrase that is wrong or unreadable, a value
 * the passphrase does not open), that is the problem (passphraseSecrets.ts).
 */
function sealedKubeconfig(raw: RawConfig, key: string, findings: Findings): void {
    const offline = raw.stackFile?.offline?.[key];
    if (offline?.state === "refused") {
        findings.problem({ key: offline.setting, problem: offline.problem, allowed: offline.allowed, fix: offline.fix });
        return;
    }
    // Ciphertext of the wrong form has its own problem (secureValues.ts); nothing more to say about it here.
    const stored = raw.stackFile?.encrypted[key];
    if (stored !== undefined && ciphertextProblem(stored, raw.stackFile!.passphrase) !== undefined) return;
    const where =
        offline?.state === "sealed" && offline.why === "not-passphrase"
            ? "the stack's secrets provider (the Pulumi Cloud or a cloud KMS) decrypts it only through the Pulumi CLI"
            : `without the stack's passphrase (${PASSPHRASE_ENV} or ${PASSPHRASE_FILE_ENV}) nothing here can decrypt it`;
    findings.warn(
        `${key} is stored encrypted, and ${where}, so the kubeconfig and the context chosen in it are checked only where Pulumi decrypts them: by the program under pulumi preview and pulumi up` +
            (offline?.state === "sealed" && offline.why === "not-passphrase" ? "." : `. Export ${PASSPHRASE_ENV} to have mara validate, plan and render check them too.`),
    );
}

/**
 * An inline kubeconfig kept in plain text in the stack file that carries a credential: anyone who can read the file,
 * or its history in Git, can act on the cluster as that user. It works, so it is a warning, naming the key and the
 * fix; Pulumi reads a multi-line value from standard input (`pulumi config set`, "Multi-line values may be set by
 * piping a file to standard in": pulumi/pulumi `pkg/cmd/pulumi/config/config_set.go`).
 */
function plainTextCredentials(raw: RawConfig, key: string, credentials: readonly string[], findings: Findings): void {
    if (credentials.length === 0 || raw.secretKeys.has(key)) return;
    findings.warn(
        `${key} is a kubeconfig stored in plain text in the stack file, and it carries ${credentials.join(", ")}: anyone who can read the file, or its history in Git, can act on the cluster as that user. ` +
            `Store it encrypted: pulumi config set --secret ${key} < <kubeconfig file> (or kubectl config view --raw --minify | pulumi config set --secret ${key}), or set ${key} to the kubeconfig's path instead.`,
    );
}

/** The user's own registry: all four keys, or none. */
function externalRegistry({ r, v }: Lookup, findings: Findings): ExternalRegistryConfig | undefined {
    const ids = ["registryServer", "registryRepository", "registryUsername", "registryPassword"] as const;
    const set = ids.filter((id) => r(id).source !== undefined);
    if (set.length === 0) return undefined;
    if (set.length < ids.length) {
        const missing = ids.filter((id) => !set.includes(id));
        // Named by the first missing key; the fix sets them all.
        const [first = "registryServer"] = missing;
        findings.problem({
            key: KEYS[first].key,
            problem: `is not set, but ${set.map((id) => KEYS[id].key).join(", ")} ${set.length === 1 ? "is" : "are"}: a registry needs its server, repository, user and password`,
            allowed: "all four mara:registry* keys, or none (then the image is pulled from its source)",
            fix: missing.map((id) => configSetCommand(KEYS[id].key, KEYS[id].example ?? "<value>", KEYS[id].secret)).join(" && "),
        });
        return undefined;
    }
    const [server, repository, username, password] = [v("registryServer"), v("registryRepository"), v("registryUsername"), secretOutput(r("registryPassword"))];
    // A value that did not parse is undefined here; its problem is already recorded.
    if (server === undefined || repository === undefined || username === undefined || password === undefined) return undefined;
    return { server, repository, username, password };
}

/** MARA's Harbor VM is gone on every infrastructure type; its keys, when set, are named once. */
export function checkHarborKeys({ r, keyOf }: Lookup, findings: Findings): void {
    const harborKeys = (["harborSoaEmail", "harborInstanceType", "harborSshKeyPath", "harborAdminPassword", "harborDbPassword", "harborSudoPassword"] as const)
        .filter((id) => r(id).source !== undefined)
        .map((id) => keyOf(id));
    if (harborKeys.length === 0) return;
    findings.warn(
        `${harborKeys.join(", ")} ${harborKeys.length === 1 ? "is" : "are"} not used: MARA's Harbor VM is replaced by your own registry ` +
            `(mara:registryServer, mara:registryRepository, mara:registryUsername, mara:registryPassword) or, without one, by pulling the image from its source.`,
    );
}

function missingToken(cloud: string, key: string, env: string): string {
    return `No ${cloud} API token: neither ${key} nor ${env} is set, so \`pulumi up\` will fail to authenticate. Set one: pulumi config set --secret ${key} <token>, or export ${env}.`;
}

/** Whether a kubeconfig setting is a path (one line, not YAML or JSON) rather than the kubeconfig's contents. */
export function isKubeconfigPath(value: string): boolean {
    return !isInlineKubeconfig(value);
}
