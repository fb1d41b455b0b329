/**
 * The annotations by which a Service asks its cloud controller to keep its load balancer (components/drain/
 * ownership.ts), at the edges of their values: the drain must keep every load balancer the controller would keep.
 */
import { describe, expect, it } from "vitest";
import { PRESERVE_ANNOTATIONS, preservesLoadBalancer } from "../../../components/drain/ownership";

const service = (annotations: Record<string, string>) => ({ service: "shop/web", ips: ["198.51.100.8"], hostnames: [], annotations });

describe("preservesLoadBalancer", () => {
    for (const annotation of Object.keys(PRESERVE_ANNOTATIONS)) {
        describe(annotation, () => {
            it.each(["true", "True", "TRUE", "tRuE", "1", "t", "T"])("%s keeps the load balancer: the controllers read it with Go's ParseBool (1, t, T, true in any case)", (value) => {
                expect(preservesLoadBalancer(service({ [annotation]: value }))).toBe(true);
            });

            it.each(["false", "False", "", "yes please", "0", "f", "2", "tr"])("%s does not", (value) => {
                expect(preservesLoadBalancer(service({ [annotation]: value }))).toBe(false);
            });
        });
    }

    it("needs the annotation itself: the same value under another key, or no annotation, keeps nothing", () => {
        expect(preservesLoadBalancer(service({}))).toBe(false);
        expect(preservesLoadBalancer(service({ "service.beta.kubernetes.io/linode-loadbalancer-tags": "true" }))).toBe(false);
        expect(preservesLoadBalancer(service({ "service.beta.kubernetes.io/do-loadbalancer-disown": "true" }))).toBe(false);
    });
});
