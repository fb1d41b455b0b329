/**
 * The Pod Security Standards, evaluated offline on the pod templates a render holds: the checks of the API server's
 * PodSecurity admission, mirrored from kubernetes/pod-security-admission (policy/check_*.go at v0.35, the version the
 * engine tier's API server runs), each named by its upstream check ID so a finding points at the Go function to read.
 * The engine tier asks the real admission the same question (test/engine/platform.test.ts); this is the fast, offline
 * answer and the one that says which field of which template is at fault.
 */
import type { PodSecurityLevel } from "../../components/podSecurity";

/** A pod template's owner, for messages: `Kind namespace/name`. */
export interface PodTemplate {
    readonly owner: string;
    readonly namespace: string;
    readonly metadata: { annotations?: Record<string, string> };
    readonly spec: PodSpec;
}

/** One check a pod template fails: its upstream ID, the level it belongs to, and what is at fault. */
export interface Violation {
    readonly check: string;
    readonly level: Exclude<PodSecurityLevel, "privileged">;
    readonly detail: string;
}

/* eslint-disable @typescript-eslint/no-explicit-any -- pod specs as rendered YAML, read defensively */
type PodSpec = Record<string, any>;
type Container = Record<string, any>;

const containersOf = (spec: PodSpec): Container[] => [...(spec.initContainers ?? []), ...(spec.containers ?? []), ...(spec.ephemeralContainers ?? [])];

/** check_capabilities_baseline.go capabilities_allowed_1_0. */
const BASELINE_CAPABILITIES = new Set(["AUDIT_WRITE", "CHOWN", "DAC_OVERRIDE", "FOWNER", "FSETID", "KILL", "MKNOD", "NET_BIND_SERVICE", "SETFCAP", "SETGID", "SETPCAP", "SETUID", "SYS_CHROOT"]);
/** check_sysctls.go sysctlsAllowedV1Dot32 (the newest set, which 1.35 applies). */
const SAFE_SYSCTLS = new Set([
    "kernel.shm_rmid_forced",
    "net.ipv4.ip_local_port_range",
    "net.ipv4.tcp_syncookies",
    "net.ipv4.ping_group_range",
    "net.ipv4.ip_unprivileged_port_start",
    "net.ipv4.ip_local_reserved_ports",
    "net.ipv4.tcp_keepalive_time",
    "net.ipv4.tcp_fin_timeout",
    "net.ipv4.tcp_keepalive_intvl",
    "net.ipv4.tcp_keepalive_probes",
    "net.ipv4.tcp_rmem",
    "net.ipv4.tcp_wmem",
]);
/** check_seLinuxOptions.go selinuxAllowedTypes1_31. */
const SELINUX_TYPES = new Set(["", "container_t", "container_init_t", "container_kvm_t", "container_engine_t"]);
/** check_restrictedVolumes.go: the only volume sources restricted allows. */
const RESTRICTED_VOLUMES = new Set(["configMap", "csi", "downwardAPI", "emptyDir", "ephemeral", "persistentVolumeClaim", "projected", "secret"]);

/** Every check the template fails, baseline and restricted. */
export function violations(t: PodTemplate): Violation[] {
    const out: Violation[] = [];
    const spec = t.spec;
    const psc = spec.securityContext ?? {};
    const cs = containersOf(spec);
    const fail = (check: string, level: Violation["level"], what: string[]) => {
        if (what.length > 0) out.push({ check, level, detail: what.join(", ") });
    };
    const named = (pred: (c: Container) => boolean) => cs.filter(pred).map((c) => `container ${c.name}`);

    // Baseline.
    fail("hostNamespaces", "baseline", ["hostNetwork", "hostPID", "hostIPC"].filter((f) => spec[f] === true).map((f) => `${f}=true`));
    fail("privileged", "baseline", named((c) => c.securityContext?.privileged === true));
    fail("capabilities_baseline", "baseline", named((c) => (c.securityContext?.capabilities?.add ?? []).some((a: string) => !BASELINE_CAPABILITIES.has(a))));
    fail("hostPathVolumes", "baseline", (spec.volumes ?? []).filter((v: any) => v.hostPath !== undefined).map((v: any) => `hostPath volume ${v.name} (${v.hostPath.path})`));
    fail("hostPorts", "baseline", named((c) => (c.ports ?? []).some((p: any) => (p.hostPort ?? 0) !== 0)));
    const appArmorBad = (p: any) => p !== undefined && p.type !== "RuntimeDefault" && p.type !== "Localhost";
    fail("appArmorProfile", "baseline", [
        ...(appArmorBad(psc.appArmorProfile) ? ["pod appArmorProfile"] : []),
        ...named((c) => appArmorBad(c.securityContext?.appArmorProfile)),
        ...Object.entries(t.metadata.annotations ?? {})
            .filter(([k, v]) => k.startsWith("container.apparmor.security.beta.kubernetes.io/") && v !== "runtime/default" && !v.startsWith("localhost/"))
            .map(([k]) => k),
    ]);
    const seLinuxBad = (o: any) => o !== undefined && (!SELINUX_TYPES.has(o.type ?? "") || (o.user ?? "") !== "" || (o.role ?? "") !== "");
    fail("seLinuxOptions", "baseline", [...(seLinuxBad(psc.seLinuxOptions) ? ["pod seLinuxOptions"] : []), ...named((c) => seLinuxBad(c.securityContext?.seLinuxOptions))]);
    fail("procMount", "baseline", named((c) => (c.securityContext?.procMount ?? "Default") !== "Default"));
    const unconfined = (p: any) => p?.type === "Unconfined";
    fail("seccompProfile_baseline", "baseline", [...(unconfined(psc.seccompProfile) ? ["pod seccompProfile"] : []), ...named((c) => unconfined(c.securityContext?.seccompProfile))]);
    fail("sysctls", "baseline", (psc.sysctls ?? []).filter((s: any) => !SAFE_SYSCTLS.has(s.name)).map((s: any) => `sysctl ${s.name}`));
    fail("windowsHostProcess", "baseline", [...(psc.windowsOptions?.hostProcess === true ? ["pod"] : []), ...named((c) => c.securityContext?.windowsOptions?.hostProcess === true)]);
    const hostIn = (c: Container) =>
        [c.livenessProbe, c.readinessProbe, c.startupProbe, c.lifecycle?.postStart, c.lifecycle?.preStop].some((h: any) => (h?.httpGet?.host ?? "") !== "" || (h?.tcpSocket?.host ?? "") !== "");
    fail("hostProbesAndHostLifecycle", "baseline", named(hostIn));

    // Restricted.
    fail("restrictedVolumes", "restricted", (spec.volumes ?? []).filter((v: any) => !Object.keys(v).some((k) => RESTRICTED_VOLUMES.has(k))).map((v: any) => `volume ${v.name} (${Object.keys(v).filter((k) => k !== "name").join(",")})`));
    fail("allowPrivilegeEscalation", "restricted", named((c) => c.securityContext?.allowPrivilegeEscalation !== false));
    // check_runAsNonRoot.go runAsNonRoot1_35: a pod in its own user namespace (hostUsers: false) is exempt.
    if (spec.hostUsers !== false) {
        const podNonRoot = psc.runAsNonRoot === true;
        fail("runAsNonRoot", "restricted", [
            ...(psc.runAsNonRoot === false ? ["pod runAsNonRoot=false"] : []),
            ...named((c) => c.securityContext?.runAsNonRoot === false || (!podNonRoot && c.securityContext?.runAsNonRoot !== true)),
        ]);
        fail("runAsUser", "restricted", [...(psc.runAsUser === 0 ? ["pod runAsUser=0"] : []), ...named((c) => c.securityContext?.runAsUser === 0)]);
    }
    const confined = (p: any) => p?.type === "RuntimeDefault" || p?.type === "Localhost";
    fail("seccompProfile_restricted", "restricted", named((c) => !confined(c.securityContext?.seccompProfile) && !(c.securityContext?.seccompProfile === undefined && confined(psc.seccompProfile))));
    fail("capabilities_restricted", "restricted", named((c) => !(c.securityContext?.capabilities?.drop ?? []).includes("ALL") || (c.securityContext?.capabilities?.add ?? []).some((a: string) => a !== "NET_BIND_SERVICE")));
    return out;
}

/** The highest level a set of templates meets. */
export function levelMet(templates: readonly PodTemplate[]): PodSecurityLevel {
    const all = templates.flatMap(violations);
    if (all.some((v) => v.level === "baseline")) return "privileged";
    if (all.some((v) => v.level === "restricted")) return "baseline";
    return "restricted";
}

/** The pod templates in rendered objects: Pods, and the template of every workload kind that has one. */
export function podTemplatesOf(objects: readonly { kind?: string; metadata?: { name?: string; namespace?: string }; spec?: any }[]): PodTemplate[] {
    const out: PodTemplate[] = [];
    for (const o of objects) {
        const owner = `${o.kind} ${o.metadata?.namespace ?? ""}/${o.metadata?.name}`;
        const ns = o.metadata?.namespace ?? "";
        if (o.kind === "Pod") out.push({ owner, namespace: ns, metadata: (o.metadata ?? {}) as PodTemplate["metadata"], spec: o.spec ?? {} });
        else if (["Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job"].includes(o.kind ?? "")) out.push({ owner, namespace: ns, metadata: o.spec?.template?.metadata ?? {}, spec: o.spec?.template?.spec ?? {} });
        else if (o.kind === "CronJob") out.push({ owner, namespace: ns, metadata: o.spec?.jobTemplate?.spec?.template?.metadata ?? {}, spec: o.spec?.jobTemplate?.spec?.template?.spec ?? {} });
    }
    return out;
}
