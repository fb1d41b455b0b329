import * as pulumi from "@pulumi/pulumi";
import * as random from "@pulumi/random";
import { beforeAll, describe, expect, it } from "vitest";
import { LogAgent, LogAgentArgs, logAgentValues, LogAgentValuesInput, section } from "../../components";
import { SECRETS_REVISION_ANNOTATION } from "../../components/passwordRotation";
import { CHARTS } from "../../contracts";
import { k8sProviderRef, testProvider, validateKubernetesObjects } from "../support/k8s";
import { find, installMocks, isWrappedSecret, promiseOf, Registration, settle, unwrapSecrets } from "../support/mocks";

interface Values {
    kind: string;
    tolerations: { key?: string; operator?: string; effect?: string }[];
    env: { name: string; valueFrom: { secretKeyRef: { name: string; key: string } } }[];
    daemonSetVolumes: { name: string; hostPath: { path: string; type?: string } }[];
    daemonSetVolumeMounts: { name: string; mountPath: string; readOnly: boolean }[];
    config: { inputs: string; filters: string; outputs: string };
}

const CONTAINERD: LogAgentValuesInput = {
    elasticsearchHost: "elastic-es-http.logstore.svc.cluster.local",
    secretName: "es-creds",
    containerLogPath: "/var/log/containers",
    podLogPath: "/var/log/pods",
    containerRuntime: "containerd",
};
const values = (over: Partial<LogAgentValuesInput> = {}) => logAgentValues({ ...CONTAINERD, ...over }) as unknown as Values;

/** The key/value entries of one classic-format Fluent Bit section, checking its header. */
function entries(text: string, kind: string): Record<string, string> {
    const [header, ...lines] = text.trimEnd().split("\n");
    expect(header).toBe(`[${kind}]`);
    return Object.fromEntries(
        lines.map((l) => {
            const m = /^ {4}(\S+) +(\S.*)$/.exec(l);
            if (!m) throw new Error(`not a section entry: ${JSON.stringify(l)}`);
            return [m[1], m[2]];
        }),
    );
}

/** Host directories the pods see, joined from the volumes and mounts. */
const hostMounts = (v: Values) =>
    v.daemonSetVolumeMounts.map((m) => {
        const volume = v.daemonSetVolumes.find((x) => x.name === m.name)!;
        return { hostPath: volume.hostPath.path, mountPath: m.mountPath, readOnly: m.readOnly, type: volume.hostPath.type };
    });

/** Every string in `value`, optionally skipping what is inside secret wrappers. */
function strings(value: unknown, skipSecrets = false, out: string[] = []): string[] {
    if (skipSecrets && isWrappedSecret(value)) return out;
    if (typeof value === "string") out.push(value);
    else if (Array.isArray(value)) value.forEach((v) => strings(v, skipSecrets, out));
    else if (value && typeof value === "object") Object.values(value).forEach((v) => strings(v, skipSecrets, out));
    return out;
}

describe("section", () => {
    it("writes a header and one indented, aligned entry per line, ending in a newline", () => {
        expect(section("OUTPUT", { Name: "es", Logstash_Prefix: "kubernetes" })).toBe(
            "[OUTPUT]\n    Name            es\n    Logstash_Prefix kubernetes\n",
        );
    });
});

describe("logAgentValues", () => {
    it("runs as a DaemonSet that tolerates every taint, so every node's logs are read", () => {
        const v = values();
        expect(v.kind).toBe("DaemonSet");
        expect(v.tolerations).toContainEqual({ operator: "Exists" });
    });

    it("tails the containerd log files with the CRI parser, keeping positions in the writable state directory", () => {
        const v = values();
        const input = entries(v.config.inputs, "INPUT");
        expect(input).toMatchObject({ Name: "tail", Path: "/var/log/containers/*.log", "multiline.parser": "cri" });
        expect(input.DB).toMatch(/^\/var\/lib\/fluent-bit\/[^/]+\.db$/);
        expect(hostMounts(v)).toEqual([
            { hostPath: "/var/log/containers", mountPath: "/var/log/containers", readOnly: true, type: undefined },
            { hostPath: "/var/log/pods", mountPath: "/var/log/pods", readOnly: true, type: undefined },
            { hostPath: "/var/lib/fluent-bit", mountPath: "/var/lib/fluent-bit", readOnly: false, type: "DirectoryOrCreate" },
        ]);
    });

    it("follows the paths given rather than fixed ones", () => {
        const v = values({ containerLogPath: "/data/log/containers", podLogPath: "/data/log/pods" });
        expect(entries(v.config.inputs, "INPUT").Path).toBe("/data/log/containers/*.log");
        expect(hostMounts(v).filter((m) => m.readOnly).map((m) => m.hostPath)).toEqual(["/data/log/containers", "/data/log/pods"]);
    });

    it("uses the docker parser on docker nodes and mounts the docker containers directory the log links point into", () => {
        const v = values({ containerRuntime: "docker" });
        expect(entries(v.config.inputs, "INPUT")["multiline.parser"]).toBe("docker");
        expect(hostMounts(v)).toContainEqual({ hostPath: "/var/lib/docker/containers", mountPath: "/var/lib/docker/containers", readOnly: true, type: undefined });
        expect(hostMounts(values()).map((m) => m.hostPath)).not.toContain("/var/lib/docker/containers");
    });

    it("enriches the tailed records with Kubernetes metadata", () => {
        const v = values();
        const filter = entries(v.config.filters, "FILTER");
        expect(filter).toMatchObject({ Name: "kubernetes", Match: entries(v.config.inputs, "INPUT").Tag });
    });

    // BUG (components/logAgent/component.ts, logAgentValues): the tail input tags records `kube.<path with dots>`, but the
    // kubernetes filter keeps its default Kube_Tag_Prefix `kube.var.log.containers.`, so for any containerLogPath
    // other than /var/log/containers the filter cannot parse pod, namespace and container from the tag and the
    // records get no Kubernetes metadata. Enable once the filter sets Kube_Tag_Prefix from containerLogPath.
    it("strips the tag prefix the tail input really produces, whatever the container log path", () => {
        const v = values({ containerLogPath: "/data/log/containers" });
        expect(entries(v.config.filters, "FILTER").Kube_Tag_Prefix).toBe("kube.data.log.containers.");
    });

    it("ships to Elasticsearch 8+ in daily kubernetes-* indices, without mapping types", () => {
        const out = entries(values().config.outputs, "OUTPUT");
        expect(out).toMatchObject({
            Name: "es",
            Match: "kube.*",
            Host: "elastic-es-http.logstore.svc.cluster.local",
            Port: "9200",
            Logstash_Format: "On",
            Logstash_Prefix: "kubernetes",
            Suppress_Type_Name: "On",
        });
        expect(entries(values({ indexPrefix: "mara", elasticsearchPort: 9201 }).config.outputs, "OUTPUT")).toMatchObject({
            Logstash_Prefix: "mara",
            Port: "9201",
        });
    });

    it("authenticates with credentials read from the given Secret through environment variables", () => {
        const v = values();
        const out = entries(v.config.outputs, "OUTPUT");
        expect(out.HTTP_User).toBe("${ES_USER}");
        expect(out.HTTP_Passwd).toBe("${ES_PASSWORD}");
        expect(v.env).toEqual([
            { name: "ES_USER", valueFrom: { secretKeyRef: { name: "es-creds", key: "username" } } },
            { name: "ES_PASSWORD", valueFrom: { secretKeyRef: { name: "es-creds", key: "password" } } },
        ]);
    });

    it("contains no '{{' anywhere, since the chart passes its config through Helm's tpl", () => {
        for (const v of [values(), values({ containerRuntime: "docker" })]) {
            for (const s of strings(v)) expect(s).not.toContain("{{");
        }
    });
});

describe("LogAgent", () => {
    const PASSWORD = "log-agent-secret-pw";
    const ARGS: LogAgentArgs = {
        elasticsearchHost: pulumi.output("elastic-es-http.logstore.svc.cluster.local"),
        username: "log-writer",
        password: PASSWORD,
        containerLogPath: "/var/log/containers",
        podLogPath: "/var/log/pods",
        containerRuntime: "containerd",
    };
    let regs: Registration[];
    let agent: LogAgent;
    let provider: string;
    let upstream: random.RandomPassword;

    beforeAll(async () => {
        ({ registrations: regs } = await installMocks());
        const k8s = testProvider();
        upstream = new random.RandomPassword("upstream", { length: 16 });
        agent = new LogAgent("log-agent", ARGS, { providers: [k8s], dependsOn: [upstream] });
        await settle();
        provider = await k8sProviderRef(k8s);
    });

    it("keeps the Elasticsearch credentials in a basic-auth Secret in the logagent namespace, the password secret-wrapped", () => {
        const secret = find(regs, "kubernetes:core/v1:Secret", "log-agent-credentials");
        expect(secret.inputs).toMatchObject({ type: "kubernetes.io/basic-auth", metadata: { namespace: "logagent" } });
        expect(isWrappedSecret(secret.inputs!.stringData)).toBe(true);
        expect(unwrapSecrets(secret.inputs!.stringData)).toEqual({ username: "log-writer", password: PASSWORD });
    });

    it("installs Fluent Bit from the catalogue, pointing at that Secret by name and never carrying the password", () => {
        const release = find(regs, "kubernetes:helm.sh/v3:Release", "log-agent-release");
        expect(release.inputs).toMatchObject({
            name: "fluent-bit",
            namespace: "logagent",
            chart: CHARTS.logagent.chart,
            version: CHARTS.logagent.version,
            repositoryOpts: { repo: CHARTS.logagent.repositoryUrl },
        });
        const v = release.inputs!.values as Values;
        const secretName = (find(regs, "kubernetes:core/v1:Secret", "log-agent-credentials").inputs!.metadata as { name: string }).name;
        expect(v.env.map((e) => e.valueFrom.secretKeyRef.name)).toEqual([secretName, secretName]);
        expect(entries(v.config.outputs, "OUTPUT").Host).toBe("elastic-es-http.logstore.svc.cluster.local");
        for (const s of strings(release.inputs, false)) expect(s).not.toContain(PASSWORD);
    });

    it("installs the release after the Secret it reads and the namespace after what the component depends on", async () => {
        const release = find(regs, "kubernetes:helm.sh/v3:Release", "log-agent-release");
        expect(release.dependencies).toContain(find(regs, "kubernetes:core/v1:Secret", "log-agent-credentials").urn);
        expect(find(regs, "kubernetes:core/v1:Namespace", "log-agent-ns").dependencies).toContain(await promiseOf(upstream.urn));
    });

    it("never puts the password in plain text into any registration", () => {
        for (const r of regs.filter((x) => x.inputs)) {
            for (const s of strings(r.inputs, true)) expect(s, `${r.type} ${r.name}`).not.toContain(PASSWORD);
        }
    });

    it("exports its namespace and the release status", async () => {
        expect(await promiseOf(agent.namespace)).toBe("logagent");
        expect(await promiseOf(agent.status)).toBe("deployed");
    });

    it("puts everything on the cluster's provider and passes schema validation", () => {
        const objects = regs.filter((x) => x.type.startsWith("kubernetes:"));
        expect(objects).toHaveLength(3);
        for (const r of objects) expect(r.provider, r.name).toBe(provider);
        const { checked, errors } = validateKubernetesObjects(regs);
        expect(errors).toEqual([]);
        expect(checked).toEqual(expect.arrayContaining(["Namespace/log-agent-ns", "Secret/log-agent-credentials"]));
    });

    const allowed = "Allowed: an absolute host path below a system directory, such as /var/log/containers, without '.' or '..' segments.";
    it.each([
        [{ containerLogPath: "var/log/containers" }, `LogAgent: containerLogPath "var/log/containers" is not an absolute path; it is mounted from every node. ${allowed}`],
        [{ podLogPath: "pods" }, `LogAgent: podLogPath "pods" is not an absolute path; it is mounted from every node. ${allowed}`],
        [{ podLogPath: "" }, `LogAgent: podLogPath "" is not an absolute path; it is mounted from every node. ${allowed}`],
        [{ containerLogPath: "/" }, `LogAgent: containerLogPath "/" is the node's root directory, which must never be mounted into a pod; it is mounted from every node. ${allowed}`],
        [{ containerLogPath: "/etc" }, `LogAgent: containerLogPath "/etc" is a system directory of the node, which must never be mounted into a pod; it is mounted from every node. ${allowed}`],
        [{ podLogPath: "/var/log/../../etc" }, `LogAgent: podLogPath "/var/log/../../etc" contains '.' or '..' segments; it is mounted from every node. ${allowed}`],
    ])("rejects %j before creating anything", async (over, message) => {
        const { registrations } = await installMocks();
        expect(() => new LogAgent("bad", { ...ARGS, ...over })).toThrow(new Error(message));
        await settle();
        expect(registrations.filter((r) => r.custom)).toEqual([]);
    });
});

describe("a rotated log agent password", () => {
    const ARGS: LogAgentArgs = {
        elasticsearchHost: pulumi.output("elastic-es-http.logstore.svc.cluster.local"),
        username: "log-writer",
        password: "log-agent-secret-pw",
        containerLogPath: "/var/log/containers",
        podLogPath: "/var/log/pods",
        containerRuntime: "containerd",
    };
    const annotation = async (password: string) => {
        const { registrations } = await installMocks();
        new LogAgent("log-agent", { ...ARGS, password }, { providers: [testProvider()] });
        await settle();
        return (find(registrations, "kubernetes:helm.sh/v3:Release", "log-agent-release").inputs!.values as { podAnnotations?: Record<string, string> }).podAnnotations?.[SECRETS_REVISION_ANNOTATION];
    };

    it("rolls the agent's pods (Fluent Bit reads the password only at start) through the Secret's revision alone", async () => {
        const [first, same, rotated] = [await annotation("log-agent-secret-pw"), await annotation("log-agent-secret-pw"), await annotation("log-agent-secret-pw-2")];
        expect(first).toMatch(/^elasticsearch-credentials=\d+$/);
        expect(same).toBe(first);
        expect(rotated).not.toBe(first);
    });
});
