/** Validation of MetalLB's keys (components/metalLb/keys.ts, config/clusterAddOns.ts), with exact messages. */
import { describe, expect, it } from "vitest";
import { formatProblem, validateConfig } from "../../config";
import { aws, KUBECONFIG_TEXT, rawConfig } from "../support/config";

// The inline kubeconfig stored encrypted, as it should be (a plain-text one with its token draws a warning of its own).
const existing = (values: Record<string, string> = {}) =>
    rawConfig({ "mara:infraType": "kubeconfig", "mara:kubeconfig": KUBECONFIG_TEXT, "mara:fqdn": "mara.lab.example.org", ...values }, { secret: ["mara:kubeconfig"] });
const problems = (raw: ReturnType<typeof rawConfig>) => validateConfig(raw).problems.map(formatProblem);

describe("MetalLB's keys", () => {
    it("builds the pool and the BGP peers", () => {
        const cfg = validateConfig(existing({ "mara:metallbAddresses": '["192.168.1.240-192.168.1.250","10.20.30.0/28"]', "mara:metallbBgpPeers": "192.168.1.1:64501:64500" })).config!;
        expect(cfg.metalLb.addresses).toEqual(["192.168.1.240-192.168.1.250", "10.20.30.0/28"]);
        expect(cfg.metalLb.bgpPeers).toEqual([{ address: "192.168.1.1", asn: 64501, myAsn: 64500 }]);
        expect(cfg.metalLb.chart).toMatchObject({ chart: "metallb", version: "0.16.1" });
        expect(validateConfig(existing()).config!.metalLb.addresses).toEqual([]);
    });

    it("refuses malformed entries, naming what is wrong with each", () => {
        expect(problems(existing({ "mara:metallbAddresses": '["192.168.1.250-192.168.1.240"]' }))).toEqual([
            expect.stringContaining('has an entry "192.168.1.250-192.168.1.240" that ends (192.168.1.240) before it starts (192.168.1.250)'),
        ]);
        expect(problems(existing({ "mara:metallbAddresses": "192.168.1.241/28" }))[0]).toContain("has host bits set: MetalLB would take the whole block 192.168.1.240/28, more addresses than written");
        expect(problems(existing({ "mara:metallbBgpPeers": "192.168.1.1:0:64500", "mara:metallbAddresses": "10.0.0.0/28" }))[0]).toContain("has an AS number outside 1 to 4294967295");
    });

    it("refuses public addresses unless declared, and overlapping entries", () => {
        expect(problems(existing({ "mara:metallbAddresses": "203.0.113.16/28" }))).toEqual([
            "mara:metallbAddresses = \"203.0.113.16/28\": is not inside a private range or a range declared in mara:metallbAllowedRanges; MetalLB would answer for addresses that may belong to someone else. Allowed: addresses inside 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, 100.64.0.0/10. Fix: use free addresses of the nodes' private network, or declare your public range: pulumi config set --path 'mara:metallbAllowedRanges[0]' <cidr>",
        ]);
        expect(problems(existing({ "mara:metallbAddresses": "203.0.113.16/28", "mara:metallbAllowedRanges": "203.0.113.0/24" }))).toEqual([]);
        expect(problems(existing({ "mara:metallbAddresses": '["192.168.1.0/28","192.168.1.10-192.168.1.20"]' }))).toEqual([
            "mara:metallbAddresses = \"192.168.1.0/28, 192.168.1.10-192.168.1.20\": has entries that overlap; MetalLB refuses a pool whose ranges share addresses. Allowed: entries that share no address. Fix: merge the two entries into one range",
        ]);
    });

    it("is for existing clusters only (ignored on a cloud, with a warning), and BGP peers need a pool", () => {
        const onAws = validateConfig(aws({ "mara:metallbAddresses": "10.0.0.0/28", "mara:nfsServer": "192.168.1.10", "mara:nfsPath": "/srv", "mara:storageClass": "gp3" }));
        expect(onAws.problems).toEqual([]);
        expect(onAws.config!.metalLb.addresses).toEqual([]);
        expect(onAws.config!.nfsStorage.server).toBeUndefined();
        expect(onAws.warnings).toContain(
            "mara:metallbAddresses, mara:nfsServer, mara:nfsPath are ignored on aws: MetalLB and the NFS provisioner are installed only on an existing cluster (mara:infraType kubeconfig); aws's own load balancers and volumes serve the platform.",
        );
        expect(problems(existing({ "mara:metallbBgpPeers": "192.168.1.1:64501:64500" }))[0]).toContain("names BGP routers, but mara:metallbAddresses is not set");
    });

    it("warns when the ingress controller does not use it", () => {
        expect(validateConfig(existing({ "mara:metallbAddresses": "10.0.0.0/28", "mara:ingressServiceType": "NodePort" })).warnings).toContain(
            "mara:metallbAddresses installs MetalLB, but mara:ingressServiceType is NodePort, so the ingress controller does not use it.",
        );
    });
});

describe("MetalLB's pool as MetalLB reads it", () => {
    const entry = (value: string) => problems(existing({ "mara:metallbAddresses": JSON.stringify([value]) }));

    it("refuses a bare address (MetalLB's ParseCIDR needs a prefix length) and accepts its /32 and its one-address range", () => {
        expect(entry("192.168.1.10")).toEqual([
            'mara:metallbAddresses = "[\\"192.168.1.10\\"]": has an entry "192.168.1.10" that is one address without a prefix length, which MetalLB refuses (it reads an entry as a CIDR block or a first-last range); write 192.168.1.10/32 or 192.168.1.10-192.168.1.10. Allowed: a list where each entry is an IPv4 CIDR block (192.168.1.240/28; 192.168.1.240/32 for one address) or a first-last range (192.168.1.240-192.168.1.250). Fix: pulumi config set mara:metallbAddresses \'["192.168.1.240-192.168.1.250"]\'',
        ]);
        expect(entry("192.168.1.10/32")).toEqual([]);
        expect(entry("192.168.1.10-192.168.1.10")).toEqual([]);
        expect(entry("192.168.1.10 - 192.168.1.20")).toEqual([]);
    });

    it("refuses what Go's address parser refuses: leading zeros, octets past 255, a prefix past /32, a second '-'", () => {
        expect(entry("192.168.01.0/28")[0]).toContain("has an address with a leading zero (192.168.01.0), which MetalLB's parser refuses");
        expect(entry("192.168.1.010-192.168.1.20")[0]).toContain("has an address with a leading zero (192.168.1.010)");
        expect(entry("192.168.1.256/32")[0]).toContain("is not an IPv4 CIDR block");
        expect(entry("192.168.1.0/33")[0]).toContain("is not an IPv4 CIDR block");
        expect(entry("192.168.1.1-192.168.1.5-192.168.1.9")[0]).toContain("is not a range of two IPv4 addresses");
        expect(entry("192.168.1.0/32")).toEqual(expect.arrayContaining([expect.stringContaining("holds only addresses ending in .0 or .255")]));
        expect(entry("192.168.1.255/32")[0]).toContain("holds only addresses ending in .0 or .255, which the platform's pool leaves out (avoidBuggyIPs)");
        expect(entry("192.168.1.255-192.168.2.0")[0]).toContain("holds only addresses ending in .0 or .255");
        expect(entry("192.168.1.255-192.168.2.1")).toEqual([]);
        expect(entry("192.168.1.254/31")).toEqual([]);
        // A YAML mapping where the list belongs is named as one, not split at its commas.
        expect(problems(existing({ "mara:metallbAddresses": '{"0":"10.0.0.0/28","1":"10.0.1.0/28"}' }))[0]).toContain("is a mapping (YAML or JSON), where a list belongs");
    });

    it("refuses blocks no host may use, even where mara:metallbAllowedRanges declares them", () => {
        const declared = (value: string, allowed: string) => problems(existing({ "mara:metallbAddresses": JSON.stringify([value]), "mara:metallbAllowedRanges": allowed }));
        expect(declared("224.0.0.0/28", "224.0.0.0/4")[0]).toContain('has an entry "224.0.0.0/28" that overlaps 224.0.0.0/4, the multicast block, which names groups, not hosts');
        expect(declared("239.255.255.240/28", "224.0.0.0/4")[0]).toContain("the multicast block");
        expect(declared("240.0.0.1-240.0.0.9", "240.0.0.0/4")[0]).toContain("overlaps 240.0.0.0/4, the reserved block");
        expect(declared("127.0.0.1/32", "127.0.0.0/8")[0]).toContain("overlaps 127.0.0.0/8, the loopback block");
        expect(declared("0.0.0.1-0.0.0.9", "0.0.0.0/8")[0]).toContain("overlaps 0.0.0.0/8, the 'this network' block");
        expect(declared("169.254.1.1/32", "169.254.0.0/16")[0]).toContain("overlaps 169.254.0.0/16, the link-local block");
        // The neighbours of the multicast block are ordinary (if public) addresses.
        expect(declared("223.255.255.240/28", "223.0.0.0/8")).toEqual([]);
        expect(declared("1.0.0.1/32", "1.0.0.0/8")).toEqual([]);
    });

    it("refuses an empty pool, which would quietly leave MetalLB out, naming the key", () => {
        for (const empty of ["[]", ""]) {
            expect(problems(existing({ "mara:metallbAddresses": empty }))).toEqual([
                `mara:metallbAddresses = ${JSON.stringify(empty)}: is set but empty, so MetalLB would not be installed and the ingress controller's LoadBalancer Service would wait for an address forever. Allowed: at least one IPv4 CIDR block or first-last range of free addresses on the nodes' network, or the key left unset (no MetalLB). Fix: pulumi config set --path 'mara:metallbAddresses[0]' 192.168.1.240-192.168.1.250, or pulumi config rm mara:metallbAddresses`,
            ]);
        }
    });

    it("names keys that do nothing: allowed ranges or an empty router list without a pool, an empty router list with one", () => {
        expect(validateConfig(existing({ "mara:metallbAllowedRanges": "203.0.113.0/24" })).warnings).toContain("mara:metallbAllowedRanges does nothing without mara:metallbAddresses: MetalLB is installed only with a pool.");
        expect(validateConfig(existing({ "mara:metallbAddresses": "10.0.0.0/28", "mara:metallbBgpPeers": "[]" })).warnings).toContain(
            "mara:metallbBgpPeers is set but empty: MetalLB announces the pool on layer 2 (ARP), as without the key.",
        );
        // A pool that is wrong is not also "not set".
        const wrong = validateConfig(existing({ "mara:metallbAddresses": "lab", "mara:metallbAllowedRanges": "203.0.113.0/24" }));
        expect(wrong.warnings.filter((w) => w.includes("does nothing"))).toEqual([]);
        expect(wrong.problems.map(formatProblem)).toEqual([expect.stringContaining("is neither an IPv4 CIDR block nor a first-last range")]);
    });
});

describe("MetalLB's BGP routers as its FRR mode takes them", () => {
    const pool = "192.168.1.240/28";
    const routers = (...peers: string[]) => problems(existing({ "mara:metallbAddresses": pool, "mara:metallbBgpPeers": JSON.stringify(peers) }));
    const warnings = (...peers: string[]) => validateConfig(existing({ "mara:metallbAddresses": pool, "mara:metallbBgpPeers": JSON.stringify(peers) })).warnings;

    it("refuses a router where no host can be: 0.0.0.0, loopback, multicast, reserved, out-of-range octets", () => {
        expect(routers("0.0.0.0:64501:64500")[0]).toContain('has an entry "0.0.0.0:64501:64500" that names 0.0.0.0, in 0.0.0.0/8, the \'this network\' block (RFC 1122), whose 0.0.0.0 means any address: no BGP router can be there');
        expect(routers("127.0.0.1:64501:64500")[0]).toContain("in 127.0.0.0/8, the loopback block");
        expect(routers("224.0.0.5:64501:64500")[0]).toContain("in 224.0.0.0/4, the multicast block");
        expect(routers("255.255.255.255:64501:64500")[0]).toContain("in 240.0.0.0/4, the reserved block");
        expect(routers("192.168.1.256:64501:64500")[0]).toContain('has "192.168.1.256", which is not an IPv4 address');
        expect(routers("192.168.1.01:64501:64500")[0]).toContain("has an address with a leading zero (192.168.1.01), which MetalLB refuses");
        expect(routers("223.255.255.254:64501:64500")).toEqual([]);
        expect(routers("1.0.0.1:64501:64500")).toEqual([]);
    });

    it("refuses AS numbers MetalLB or its CRD refuse: 0 and past 4294967295, and accepts both ends", () => {
        expect(routers("192.168.1.1:0:64500")[0]).toContain("has an AS number outside 1 to 4294967295");
        expect(routers("192.168.1.1:64501:0")[0]).toContain("has an AS number outside 1 to 4294967295");
        expect(routers("192.168.1.1:4294967296:64500")[0]).toContain("has an AS number outside 1 to 4294967295");
        expect(routers("192.168.1.1:99999999999:64500")[0]).toContain("has an AS number outside 1 to 4294967295");
        expect(routers("192.168.1.1:1:4294967295")).toEqual([]);
        expect(routers("192.168.1.1:64500:64500")).toEqual([]);
    });

    it("refuses one router twice, and two cluster AS numbers, as MetalLB's FRR mode does", () => {
        expect(routers("192.168.1.1:64501:64500", "192.168.1.1:64502:64500")).toEqual([
            'mara:metallbBgpPeers = "192.168.1.1:64501:64500, 192.168.1.1:64502:64500": names the router 192.168.1.1 twice; MetalLB\'s FRR mode refuses two BGP peers at one address on the same nodes. Allowed: each router once. Fix: keep one entry per router address',
        ]);
        expect(routers("192.168.1.1:64501:64500", "192.168.1.1:64501:64500")[0]).toContain("names the router 192.168.1.1 twice");
        expect(routers("192.168.1.1:64501:64500", "192.168.1.2:64502:64503")).toEqual([
            'mara:metallbBgpPeers = "192.168.1.1:64501:64500, 192.168.1.2:64502:64503": gives the cluster 2 AS numbers (64500, 64503); each node runs one BGP router, and MetalLB\'s FRR mode refuses peers on the same nodes with different cluster ASNs. Allowed: one cluster AS number (the third part) in every entry. Fix: use 64500 (or your cluster\'s AS number) as the third part of every entry',
        ]);
        expect(routers("192.168.1.1:64501:64500", "192.168.1.2:64502:64500")).toEqual([]);
    });

    it("refuses a router inside the pool, at either end, and accepts its neighbours", () => {
        expect(routers("192.168.1.240:64501:64500")[0]).toContain("names the router 192.168.1.240, which is inside the pool entry 192.168.1.240/28: MetalLB could give the router's address to a Service");
        expect(routers("192.168.1.254:64501:64500")[0]).toContain("inside the pool entry 192.168.1.240/28");
        expect(routers("192.168.1.239:64501:64500")).toEqual([]);
    });

    it("warns about a router at a /24's network or broadcast address", () => {
        expect(warnings("192.168.1.0:64501:64500")).toContain(
            "mara:metallbBgpPeers = 192.168.1.0:64501:64500: names 192.168.1.0, the network address of its /24, which is a router's address only in a network larger than a /24; check the router's address.",
        );
        expect(warnings("10.0.0.255:64501:64500")[0]).toContain("the broadcast address of its /24");
        expect(warnings("10.0.0.254:64501:64500")).toEqual([]);
    });
});
