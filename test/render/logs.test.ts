/**
 * Logs you can read, as Helm renders them: the Fluent Bit release's configuration defines the parser the ingress
 * controller's pods name for their access log, loads it, and lets pods choose their parser; the controller's
 * rendered ConfigMap carries the access-log format that parser reads.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { ACCESS_LOG_FORMAT, NGINX_ACCESS_PARSER } from "../../components/logFormats";
import { vendoredChart, parseManifest, KubeObject } from "../support/charts";
import { fixture } from "../support/config";
import { helmTemplate } from "../support/helm";
import { runProgram } from "../support/program";
import { releasesOf } from "../../render/collect";
import { TARGET_KUBE_VERSION } from "./kubernetesSchema";

async function render(resource: string, regs: Awaited<ReturnType<typeof runProgram>>["registrations"]): Promise<KubeObject[]> {
    const spec = releasesOf(regs).find((r) => r.resource === resource)!;
    const result = await helmTemplate({
        release: spec.release,
        namespace: spec.namespace,
        chartPath: vendoredChart(spec.chart, spec.version)!,
        values: spec.values,
        kubeVersion: TARGET_KUBE_VERSION,
        includeCrds: false,
        skipSchemaValidation: spec.chart === "nginx-ingress",
    });
    if (!result.ok) throw new Error(result.error);
    return parseManifest(result.manifest);
}

describe("the access log, as Helm renders the log agent and the controller", () => {
    let fluentBit: KubeObject[];
    let controller: KubeObject[];

    beforeAll(async () => {
        const run = await runProgram(fixture("canonical-aws", { secrets: { "mara:grafanaAdminPassword": "grafana-password", "mara:siriusAccountsPassword": "accounts-password" } }));
        expect(run.error).toBeUndefined();
        [fluentBit, controller] = await Promise.all([render("platform-log-agent-release", run.registrations), render("platform-ingress-controller-release", run.registrations)]);
    }, 120_000);

    const fluentBitConfig = () => fluentBit.find((o) => o.kind === "ConfigMap" && (o.data as Record<string, string> | undefined)?.["fluent-bit.conf"]) as KubeObject & { data: Record<string, string> };

    it("defines the nginx-access parser in the parsers file Fluent Bit loads", () => {
        const data = fluentBitConfig().data;
        expect(data["fluent-bit.conf"]).toContain("Parsers_File /fluent-bit/etc/conf/custom_parsers.conf");
        const parsers = data["custom_parsers.conf"]!;
        const block = parsers.slice(parsers.indexOf("[PARSER]"));
        expect(block).toMatch(new RegExp(`\\n {4}Name +${NGINX_ACCESS_PARSER}\\n`));
        expect(block).toMatch(/\n {4}Format +json\n/);
        expect(block).toMatch(/\n {4}Time_Key +time\n {4}Time_Format +%s\.%L\n/);
    });

    it("lets pods choose their parser, and the controller's pods choose nginx-access for standard output", () => {
        expect(fluentBitConfig().data["fluent-bit.conf"]).toMatch(/\n {4}K8S-Logging\.Parser +On\n/);
        const deployment = controller.find((o) => o.kind === "Deployment")! as KubeObject & { spec: { template: { metadata: { annotations: Record<string, string> } } } };
        expect(deployment.spec.template.metadata.annotations["fluentbit.io/parser_stdout"]).toBe(NGINX_ACCESS_PARSER);
        expect(Object.keys(deployment.spec.template.metadata.annotations).filter((k) => k.startsWith("co.elastic."))).toEqual([]);
    });

    it("configures NGINX with the access-log format that parser reads, JSON-escaped", () => {
        const config = controller.find((o) => o.kind === "ConfigMap" && o.metadata?.name === "nginx-config")! as KubeObject & { data: Record<string, string> };
        expect(config.data["log-format"]).toBe(ACCESS_LOG_FORMAT);
        expect(config.data["log-format-escaping"]).toBe("json");
    });
});
