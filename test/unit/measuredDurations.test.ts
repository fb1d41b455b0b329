/**
 * The measured Kubernetes durations of the bench (bench/lib/measuredDurations.ts): read from the engine's event log
 * as the Pulumi CLI writes it (sdk/go/common/apitype/events.go: whole-second timestamps, a resourcePreEvent and a
 * resOutputsEvent per step), keyed as durations.ts distinguishes resources, and chosen over the estimates only
 * when measured and not turned off.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { describe, expect, it } from "vitest";
import { creationsFromEventLog, durationKey, figuresOf, loadMeasured } from "../../bench/lib/measuredDurations";

const pre = (t: number, urn: string, type: string, inputs?: Record<string, unknown>, op = "create") =>
    JSON.stringify({ sequence: 0, timestamp: t, resourcePreEvent: { metadata: { op, urn, type, new: { type, urn, inputs } } } });
const out = (t: number, urn: string, op = "create") => JSON.stringify({ sequence: 0, timestamp: t, resOutputsEvent: { metadata: { op, urn, type: "x" } } });

describe("measured Kubernetes durations", () => {
    it("keys a release by its chart, a Service by its type, anything else by its type token", () => {
        expect(durationKey({ type: "kubernetes:helm.sh/v3:Release", inputs: { chart: "oci://registry/charts/cert-manager" } })).toBe("chart cert-manager");
        expect(durationKey({ type: "kubernetes:helm.sh/v3:Release", inputs: { chart: "/srv/charts/cert-manager-v1.21.1.tgz" } })).toBe("chart cert-manager");
        expect(durationKey({ type: "kubernetes:helm.sh/v3:Release", inputs: { chart: "/srv/charts/kube-prometheus-stack-88.5.3.tgz" } })).toBe("chart kube-prometheus-stack");
        expect(durationKey({ type: "kubernetes:core/v1:Service", inputs: { spec: { type: "LoadBalancer" } } })).toBe("service LoadBalancer");
        expect(durationKey({ type: "kubernetes:core/v1:Service", inputs: { spec: {} } })).toBe("service ClusterIP");
        expect(durationKey({ type: "kubernetes:core/v1:Namespace" })).toBe("type kubernetes:core/v1:Namespace");
    });

    it("takes each created Kubernetes resource from its step's start to its outputs, and nothing else", () => {
        const log = [
            pre(100, "u:ns", "kubernetes:core/v1:Namespace"),
            pre(100, "u:rel", "kubernetes:helm.sh/v3:Release", { chart: "nginx-ingress" }),
            pre(100, "u:prov", "pulumi:providers:kubernetes"),
            pre(100, "u:pw", "random:index/randomPassword:RandomPassword"),
            out(101, "u:ns"),
            out(101, "u:prov"),
            out(101, "u:pw"),
            pre(102, "u:same", "kubernetes:core/v1:ConfigMap", {}, "same"),
            out(102, "u:same", "same"),
            out(131, "u:rel"),
            pre(140, "u:never", "kubernetes:core/v1:Secret"),
            "",
        ].join("\n");
        expect(creationsFromEventLog(log)).toEqual([
            { urn: "u:ns", key: "type kubernetes:core/v1:Namespace", seconds: 1 },
            { urn: "u:rel", key: "chart nginx-ingress", seconds: 31 },
        ]);
    });

    it("reports the median per key and how many creations it rests on", () => {
        const c = (key: string, seconds: number) => ({ urn: "u", key, seconds });
        expect(figuresOf([c("b", 3), c("a", 10), c("a", 30), c("a", 20)])).toEqual({ a: { seconds: 20, samples: 3 }, b: { seconds: 3, samples: 1 } });
    });

    it("is used when measured, unless BENCH_K8S_DURATIONS=estimates", () => {
        const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "mara-measured-")), "k8s-durations.json");
        expect(loadMeasured({}, file)).toBeUndefined();
        fs.writeFileSync(file, JSON.stringify({ measured: { date: "2026-11-25", rounds: 3, host: "h", note: "n" }, figures: { a: { seconds: 1, samples: 1 } } }));
        expect(loadMeasured({}, file)?.figures.a).toEqual({ seconds: 1, samples: 1 });
        expect(loadMeasured({ BENCH_K8S_DURATIONS: "estimates" }, file)).toBeUndefined();
    });
});
