/**
 * DigitalOcean: the DOKS control plane firewall, its equivalent of EKS's public endpoint CIDRs. Volumes are always
 * encrypted at rest and DOCR has no scan switch, so there is no rule for either.
 */
import type { ResourceRule } from "../rule";
import { ALLOWED_CIDRS_SETTING, cidrProblem } from "./cidr";

const DOKS = "digitalocean:index/kubernetesCluster:KubernetesCluster";

export const doksControlPlaneFirewall: ResourceRule<{ allowedCidrs: string[] }> = {
    kind: "resource",
    id: "digitalocean-control-plane-firewall",
    description: "DOKS clusters enable the control plane firewall with an allow-list of CIDR blocks, never 0.0.0.0/0.",
    // Advisory for the same reason as the EKS endpoint rule: only the user knows where `pulumi up` runs from.
    level: "advisory",
    settings: { allowedCidrs: ALLOWED_CIDRS_SETTING },
    types: [DOKS],
    check: ({ name, props }, s) => {
        const fw = props.controlPlaneFirewall as { enabled?: boolean; allowedAddresses?: string[] } | undefined;
        const problem = fw?.enabled === true ? cidrProblem(fw.allowedAddresses, s.allowedCidrs) : "is not enabled";
        return problem ? [`DOKS cluster "${name}"'s control plane firewall ${problem}: set controlPlaneFirewall { enabled: true, allowedAddresses }`] : [];
    },
    examples: {
        pass: [{ type: DOKS, name: "doks", props: { controlPlaneFirewall: { enabled: true, allowedAddresses: ["203.0.113.0/24"] } } }],
        fail: [
            { type: DOKS, name: "doks", props: { region: "nyc3" } },
            { type: DOKS, name: "doks", props: { controlPlaneFirewall: { enabled: true, allowedAddresses: ["0.0.0.0/0"] } } },
        ],
    },
};
