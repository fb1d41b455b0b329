import { describe, expect, it } from "vitest";
import { ConfigProblem, ENCRYPTED_PLACEHOLDER, formatProblem, GRAFANA_PASSWORD_MIN_LENGTH, validateConfig } from "../../config";
import { AWS_REGIONS, AWS_REGIONS_SOURCE } from "../../config/regions.generated";
import { aws, fixture, rawConfig } from "../support/config";

/** Problems of a config as the one-line messages users see. */
const problems = (values: Record<string, string>) => validateConfig(aws(values)).problems.map(formatProblem);
const only = (values: Record<string, string>, opts: Parameters<typeof aws>[1] = {}): ConfigProblem => {
    const found = validateConfig(aws(values, opts)).problems;
    expect(found, found.map(formatProblem).join("\n")).toHaveLength(1);
    return found[0]!;
};

describe("infrastructure type", () => {
    it("lists every valid value when the type is unknown", () => {
        expect(problems({ "kubernetes:infra_type": "gcp" })).toEqual([
            'kubernetes:infra_type = "gcp": is not a known value. Allowed: one of "aws", "digitalocean", "linode", "kubeconfig", "AWS", "DO", "LKE". Fix: pulumi config set kubernetes:infra_type aws',
        ]);
    });

    it("says how to set it when it is missing", () => {
        const result = validateConfig(rawConfig({ "aws:region": "us-east-1" }));
        expect(result.problems.map(formatProblem)).toEqual([
            'kubernetes:infra_type: is not set. Allowed: one of "aws", "digitalocean", "linode", "kubeconfig" (MARA\'s AWS, DO and LKE also work). Fix: pulumi config set kubernetes:infra_type aws (or mara:infraType)',
        ]);
    });

    it.each([
        ["AWS", "aws"],
        ["aws", "aws"],
        ["DO", "digitalocean"],
        ["digitalocean", "digitalocean"],
        ["LKE", "linode"],
        ["Linode", "linode"],
        ["kubeconfig", "kubeconfig"],
    ])("accepts %s case-insensitively as %s", (written, type) => {
        const values: Record<string, string> = { "kubernetes:infra_type": written, "aws:region": "us-east-1", "kic-helm:fqdn": "mara.example.com" };
        if (type === "linode") Object.assign(values, { "linode:region": "us-central", "linode:k8s_version": "1.35" });
        if (type === "kubeconfig") values["kubernetes:kubeconfig"] = "/home/me/.kube/config";
        const result = validateConfig(rawConfig(values, { files: ["/home/me/.kube/config"] }));
        expect(result.problems.map(formatProblem)).toEqual([]);
        expect(result.config?.infra.type).toBe(type);
    });
});

describe("EKS sizes", () => {
    it("rejects a minimum above the maximum", () => {
        expect(formatProblem(only({ "eks:min_size": "5", "eks:max_size": "2" }))).toBe(
            'eks:min_size = "5": is greater than eks:max_size (2). Allowed: a minimum no greater than the maximum. Fix: lower eks:min_size or raise eks:max_size, e.g. pulumi config set eks:max_size 12',
        );
    });

    it.each([
        ["eks:min_size", "three", "is not a number"],
        ["eks:max_size", "12.5", "is not a whole number"],
        ["eks:desired_capacity", "", "is not a number"],
        ["kic-helm:helm_timeout", "5m", "is not a number"],
        ["logstore:data_replicas", "2.0", "is not a whole number"],
        ["linode:node_count", "three", "is not a number"],
        ["docean:node_count", "1e3", "is not a number"],
    ])("rejects non-integer %s = %j", (key, value, problem) => {
        // Each key on a stack of the infrastructure type that reads it.
        const stack: Record<string, string> = key.startsWith("linode:") ? { "kubernetes:infra_type": "LKE", "linode:region": "us-central", "linode:k8s_version": "1.35", "kic-helm:fqdn": "mara.example.com", "linode:token": "t" } : key.startsWith("docean:") ? { "kubernetes:infra_type": "DO", "kic-helm:fqdn": "mara.example.com", "digitalocean:token": "t" } : {};
        const p = only({ ...stack, [key]: value }, { secret: ["linode:token", "digitalocean:token"] });
        expect(p.key).toBe(key);
        expect(p.value).toBe(value);
        expect(p.problem).toBe(problem);
        expect(p.allowed).toMatch(/^a whole number from \d+ to \d+/);
        expect(p.fix).toMatch(new RegExp(`^pulumi config set ${key} \\d+$`));
    });

    it("rejects a desired capacity outside [min, max] and proposes the nearest bound", () => {
        expect(formatProblem(only({ "eks:min_size": "2", "eks:max_size": "4", "eks:desired_capacity": "6" }))).toBe(
            'eks:desired_capacity = "6": is outside [2, 4], the node group\'s minimum (eks:min_size) and maximum (eks:max_size). Allowed: a whole number from 2 to 4. Fix: pulumi config set eks:desired_capacity 4',
        );
    });

    it("defaults the desired capacity to 3 kept within the configured range", () => {
        const sizes = (values: Record<string, string>) => {
            const infra = validateConfig(aws(values)).config!.infra;
            return infra.type === "aws" ? infra.eks : undefined;
        };
        expect(sizes({})).toMatchObject({ minSize: 3, maxSize: 12, desiredSize: 3 });
        expect(sizes({ "eks:min_size": "5", "eks:max_size": "8" })).toMatchObject({ desiredSize: 5 });
        expect(sizes({ "eks:min_size": "1", "eks:max_size": "2" })).toMatchObject({ desiredSize: 2 });
    });

    it("rejects timeouts out of range", () => {
        expect(formatProblem(only({ "kic-helm:helm_timeout": "10" }))).toBe(
            'kic-helm:helm_timeout = "10": is below the minimum of 30. Allowed: a whole number from 30 to 7200 seconds. Fix: pulumi config set kic-helm:helm_timeout 600',
        );
    });
});

describe("availability zones", () => {
    it("rejects zones of another region (MARA's example: us-west-1 zones with region us-east-1)", () => {
        const found = validateConfig(aws({ "vpc:azs": '["us-west-1a","us-west-1b"]' })).problems;
        expect(found.map((p) => p.problem)).toEqual([
            'lists "us-west-1a", which is in region us-west-1, not us-east-1',
            'lists "us-west-1b", which is in region us-west-1, not us-east-1',
        ]);
        expect(found[0]).toMatchObject({
            key: "vpc:azs",
            value: '["us-west-1a","us-west-1b"]',
            allowed: "availability zones of us-east-1, such as us-east-1a, us-east-1b and us-east-1c",
        });
        expect(found[0]!.fix).toContain("or change aws:region to the zones' region");
    });

    it("accepts Local Zone names of the region", () => {
        expect(problems({ "vpc:azs": '["us-east-1a","us-east-1-bos-1a"]' })).toEqual([]);
    });

    it("requires two distinct zones, because EKS does", () => {
        expect(only({ "vpc:azs": '["us-east-1a"]' }).problem).toBe("lists fewer than two zones; EKS needs subnets in at least two");
        expect(only({ "vpc:azs": '["us-east-1a","us-east-1a"]' }).problem).toBe("lists us-east-1a more than once");
    });

    it("reads a comma-separated list too", () => {
        const infra = validateConfig(aws({ "mara:vpcAzs": "us-east-1a, us-east-1c" })).config!.infra;
        expect(infra.type === "aws" && infra.vpc.availabilityZones).toEqual(["us-east-1a", "us-east-1c"]);
    });

    it("checks names against the region from the environment when aws:region is not set", () => {
        const raw = rawConfig({ "kubernetes:infra_type": "aws", "vpc:azs": '["eu-west-1a","eu-west-1b"]' }, { env: { AWS_REGION: "us-east-1" } });
        expect(validateConfig(raw).problems.map((p) => p.problem)[0]).toBe('lists "eu-west-1a", which is in region eu-west-1, not us-east-1');
    });
});

describe("region", () => {
    it("is required for AWS, from config or environment", () => {
        expect(validateConfig(rawConfig({ "kubernetes:infra_type": "aws" })).problems.map(formatProblem)).toEqual([
            `aws:region: is not set. Allowed: an AWS region such as us-east-1 (the ${AWS_REGIONS.length} that ${AWS_REGIONS_SOURCE} lists). Fix: pulumi config set aws:region us-east-1 (or export AWS_REGION)`,
        ]);
        const fromEnv = validateConfig(rawConfig({ "kubernetes:infra_type": "aws" }, { env: { AWS_DEFAULT_REGION: "eu-west-1" } }));
        expect(fromEnv.config?.infra).toMatchObject({ type: "aws", region: "eu-west-1" });
    });

    it("rejects a region the AWS SDK does not list, suggesting the nearest", () => {
        expect(only({ "aws:region": "us_east_1" })).toMatchObject({ key: "aws:region", problem: "is not an AWS region; did you mean us-east-1?" });
        expect(only({ "aws:region": "us-east-7" })).toMatchObject({ key: "aws:region", problem: "is not an AWS region; did you mean us-east-1?" });
        expect(only({ "aws:region": "moon-base-1" }).problem).toBe("is not an AWS region");
        // Regions the SDK lists, including the newest and the partitions' own.
        for (const region of ["eusc-de-east-1", "mx-central-1", "us-gov-west-1", "cn-north-1"]) expect(problems({ "aws:region": region }), region).toEqual([]);
    });
});

describe("negative and out-of-range counts", () => {
    it.each(["logstore:master_replicas", "logstore:data_replicas", "logstore:ingest_replicas", "logstore:coordinating_replicas"])(
        "rejects a negative %s",
        (key) => {
            expect(only({ [key]: "-1" })).toMatchObject({ key, value: "-1", problem: "is negative" });
        },
    );

    it("requires at least one Elasticsearch master and warns about an even number", () => {
        expect(only({ "logstore:master_replicas": "0" }).problem).toBe("is below the minimum of 1");
        expect(validateConfig(aws({ "logstore:master_replicas": "2" })).warnings).toContain(
            "logstore:master_replicas = 2: an even number of Elasticsearch masters tolerates no more failures than 1; use an odd number.",
        );
    });
});

describe("Helm repository URLs", () => {
    it("rejects MARA's doubled scheme", () => {
        expect(formatProblem(only({ "prometheus:helm_repo_url": "https://https://prometheus-community.github.io/helm-charts" }))).toBe(
            'prometheus:helm_repo_url = "https://https://prometheus-community.github.io/helm-charts": repeats the scheme. Allowed: an http(s):// Helm repository URL or an oci:// registry reference, e.g. https://helm.nginx.com/stable. Fix: pulumi config set prometheus:helm_repo_url https://prometheus-community.github.io/helm-charts',
        );
    });

    it.each([
        ["ftp://charts.example.com", 'uses the unsupported scheme "ftp:"'],
        ["helm.nginx.com/stable", "is not a URL"],
        ["https://bad_host/charts", 'has an invalid host "bad_host"'],
    ])("rejects %s", (url, problem) => {
        expect(only({ "kic-helm:helm_repo_url": url }).problem).toBe(problem);
    });

    it("accepts mirrors and OCI registries", () => {
        const cfg = validateConfig(aws({ "kic-helm:helm_repo_url": "oci://ghcr.io/nginx/charts", "certmgr:certmgr_helm_repo_url": "https://mirror.example.com:8443/jetstack/" })).config!;
        expect(cfg.ingressController.chart.repositoryUrl).toBe("oci://ghcr.io/nginx/charts");
        expect(cfg.certManager.chart.repositoryUrl).toBe("https://mirror.example.com:8443/jetstack");
    });

    it("puts the ingress controller's release and image in its section, ingressController, and under 0.1.0's names ingress and kic too", () => {
        const cfg = validateConfig(aws({ "mara:ingressReplicas": "3", "kic:image_name": "nginx/nginx-ingress:5.5.1" })).config!;
        expect(cfg.ingressController).toMatchObject({ replicas: 3, serviceType: "LoadBalancer", image: { imageOrigin: "registry", imageName: "nginx/nginx-ingress:5.5.1" } });
        const { image, ...release } = cfg.ingressController;
        expect([cfg.kic, cfg.ingress]).toEqual([image, release]);
    });

    it("puts the log agent's chart in its section, logAgent, and under 0.1.0's name logagent too", () => {
        const cfg = validateConfig(aws({ "mara:logagentHelmRepoUrl": "https://mirror.example.com/fluent/" })).config!;
        expect(cfg.logAgent.chart).toMatchObject({ chart: "fluent-bit", version: "0.58.1", repositoryUrl: "https://mirror.example.com/fluent" });
        expect(cfg.logagent).toBe(cfg.logAgent);
    });

    it("puts the application's settings in its section, application, and under 0.1.0's name sirius too", () => {
        const cfg = validateConfig(aws({ "sirius:accounts_db": "accounts", "mara:siriusNamespace": "bank", "mara:postgresExporterHelmRepoUrl": "https://mirror.example.com/pc/" })).config!;
        expect(cfg.application).toMatchObject({ namespace: "bank", accountsDb: "accounts", ledgerDb: "postgresdb", postgresExporterChart: { chart: "prometheus-postgres-exporter", repositoryUrl: "https://mirror.example.com/pc" } });
        expect(cfg.sirius).toBe(cfg.application);
    });
});

describe("image names and enums", () => {
    it.each([
        ["Nginx/Ingress:1.0", 'has an invalid repository name component "Nginx" (lower-case letters, digits, \'.\', \'_\' and \'-\' only)'],
        ["nginx/nginx-ingress:", "ends with ':' but has no tag"],
        ["https://docker.io/nginx/nginx-ingress:5.5.4", "starts with a URL scheme (leave out http:// or https://)"],
        ["nginx/nginx ingress:1", "contains white space"],
        ["nginx//ingress:1", "has an empty path component"],
        ["nginx/nginx-ingress@sha256:abc", "has a malformed digest (expected @sha256:<64 hex digits>)"],
    ])("rejects kic:image_name %j", (image, problem) => {
        expect(only({ "kic:image_name": image })).toMatchObject({ key: "kic:image_name", value: image, problem });
    });

    it.each([
        "nginx/nginx-ingress:5.5.4",
        "docker.io/nginx/nginx-ingress:5.5.0-alpine",
        "private-registry.nginx.com/nginx-ic/nginx-plus-ingress:5.5.4-ubi",
        "localhost:5000/kic:5.5.4",
        `nginx/nginx-ingress@sha256:${"a".repeat(64)}`,
    ])("accepts kic:image_name %s", (image) => {
        // NGINX's private registry needs the JWT (ingressController.test.ts).
        const jwt: Record<string, string> = image.startsWith("private-registry.nginx.com/") ? { "mara:nginxJwt": "jwt" } : {};
        expect(validateConfig(aws({ "kic:image_name": image, ...jwt }, { secret: Object.keys(jwt) })).config?.kic.imageName).toBe(image);
    });

    it("rejects kic:image_origin ftp and lists the values", () => {
        expect(formatProblem(only({ "kic:image_origin": "ftp" }))).toBe(
            'kic:image_origin = "ftp": is not a known value. Allowed: one of "registry", "source". Fix: pulumi config set kic:image_origin registry',
        );
    });

    it("rejects an unknown NAT gateway layout", () => {
        expect(only({ "mara:vpcNatGateways": "none" })).toMatchObject({ problem: "is not a known value", allowed: 'one of "perAz", "single"' });
    });

    it("composes MARA's existing-cluster image keys into the image name", () => {
        expect(validateConfig(aws({ "kic-helm:nginx_repository": "nginx/nginx-ingress", "kic-helm:nginx_tag": "5.5.1" })).config?.kic.imageName).toBe(
            "nginx/nginx-ingress:5.5.1",
        );
    });
});

describe("NGINX Plus", () => {
    // Plus source builds, the repository certificate and key, and the sources: ingressController.test.ts.

    it("needs the license JWT to run NGINX Plus", () => {
        expect(problems({ "kic-helm:enable_plus": "true", "kic:image_name": "private-registry.nginx.com/nginx-ic/nginx-plus-ingress:5.5.4" })).toContain(
            'kic-helm:enable_plus = "true": turns on NGINX Plus, which needs its license token, and mara:nginxJwt is not set. Allowed: false, or true together with the JWT from MyF5 in mara:nginxJwt. Fix: pulumi config set --secret mara:nginxJwt \'<jwt>\' (or pulumi config set kic-helm:enable_plus false)',
        );
    });

    it("refuses Plus mode for an open-source image, whose controller would crash-loop at deploy", () => {
        const result = validateConfig(aws({ "kic-helm:enable_plus": "true", "mara:nginxJwt": "jwt" }, { secret: ["mara:nginxJwt"] }));
        expect(result.problems.map(formatProblem)).toEqual([
            'kic-helm:enable_plus = "true": runs the controller in NGINX Plus mode, but its image (nginx/nginx-ingress:5.5.4) is not an NGINX Plus image, so the controller exits at start and the release times out. ' +
                "Allowed: false with an open-source image; true with an NGINX Plus image (private-registry.nginx.com/nginx-ic/nginx-plus-ingress, or a Plus make target such as debian-image-plus). " +
                "Fix: pulumi config set kic-helm:enable_plus false, or pulumi config set mara:ingressImageName private-registry.nginx.com/nginx-ic/nginx-plus-ingress:5.5.4",
        ]);
        expect(result.warnings.join("\n")).not.toContain("Plus");
    });
});

describe("certificates", () => {
    it("needs an email for the ACME issuer and reads MARA's SumoLogic-branch keys", () => {
        expect(only({ "sirius:cert_type": "http01" })).toMatchObject({ key: "sirius:cert_type", problem: "needs an ACME account email, and mara:acmeEmail is not set" });
        const cfg = validateConfig(aws({ "sirius:cert_type": "http01", "sirius:cert_email": "ops@example.com" })).config!;
        expect(cfg.certManager).toMatchObject({ issuer: "acme", acmeEmail: "ops@example.com", acmeServer: "https://acme-v02.api.letsencrypt.org/directory" });
    });
});

describe("MARA keys and canonical keys", () => {
    it("reads a MARA key when the canonical key only holds its Pulumi.yaml default", () => {
        const cfg = validateConfig(aws({ "mara:eksMinSize": "3", "eks:min_size": "4", "eks:max_size": "6" })).config!;
        expect(cfg.infra.type === "aws" && cfg.infra.eks.minSize).toBe(4);
    });

    it("rejects a canonical key and a MARA key that disagree", () => {
        expect(formatProblem(only({ "mara:eksMinSize": "5", "eks:min_size": "4" }))).toBe(
            'mara:eksMinSize = "5": is set together with eks:min_size = "4", and the two disagree. Allowed: one of the two keys. Fix: keep mara:eksMinSize and remove the MARA key: pulumi config rm eks:min_size',
        );
    });

    it("warns once per provider namespace, naming the new keys and the commands", () => {
        const { warnings } = validateConfig(aws({ "eks:min_size": "2", "eks:max_size": "5" }));
        expect(warnings).toContain(
            'Keys in the "eks" namespace belong to the eks provider, which may reject keys it does not know. Read under their new names: eks:min_size → mara:eksMinSize, eks:max_size → mara:eksMaxSize. Rename them: pulumi config rm eks:min_size && pulumi config set mara:eksMinSize 2 && pulumi config rm eks:max_size && pulumi config set mara:eksMaxSize 5',
        );
    });

    it("reads a key renamed in 0.2.0 under its old name, with one warning naming the new names and the commands", () => {
        const result = validateConfig(aws({ "mara:kicImageName": "registry.example.com/team/nginx-ingress:5.5.4", "mara:kicAlwaysRebuild": "true" }));
        expect(result.problems).toEqual([]);
        expect(result.config!.ingressController.image).toMatchObject({ imageName: "registry.example.com/team/nginx-ingress:5.5.4", alwaysRebuild: true });
        expect(result.warnings).toContain(
            "Keys renamed in 0.2.0 are read under their old names until 1.0.0: mara:kicImageName → mara:ingressImageName, mara:kicAlwaysRebuild → mara:ingressAlwaysRebuild. Rename them: pulumi config rm mara:kicImageName && pulumi config set mara:ingressImageName registry.example.com/team/nginx-ingress:5.5.4 && pulumi config rm mara:kicAlwaysRebuild && pulumi config set mara:ingressAlwaysRebuild true",
        );
        // The new names alone: no warning about names.
        expect(validateConfig(aws({ "mara:ingressImageName": "registry.example.com/team/nginx-ingress:5.5.4" })).warnings.filter((w) => /renamed/.test(w))).toEqual([]);
    });

    it("refuses a bad value under a renamed key's old name, naming the key as written and the fix under it", () => {
        const p = only({ "mara:kicImageOrigin": "mirror" });
        expect(p.key).toBe("mara:kicImageOrigin");
        expect(formatProblem(p)).toContain('mara:kicImageOrigin = "mirror"');
        expect(formatProblem(p)).toContain('Allowed: one of "registry", "source"');
        expect(formatProblem(p)).toContain("Fix: pulumi config set mara:kicImageOrigin registry");
    });

    it("suggests a renamed key's new name for a typo of its old one", () => {
        expect(formatProblem(only({ "mara:kicImageNam": "nginx/nginx-ingress:5.5.4" }))).toContain("did you mean mara:ingressImageName?");
    });

    it("reads the old name of a renamed key when the new one holds only its Pulumi.yaml default, and refuses the two disagreeing", () => {
        const old = validateConfig(aws({ "mara:ingressImageOrigin": "registry", "mara:kicImageOrigin": "source" }));
        expect(old.config!.ingressController.image.imageOrigin).toBe("source");
        expect(formatProblem(only({ "mara:ingressImageName": "nginx/nginx-ingress:5.5.3", "mara:kicImageName": "nginx/nginx-ingress:5.5.2" }))).toBe(
            'mara:ingressImageName = "nginx/nginx-ingress:5.5.3": is set together with mara:kicImageName = "nginx/nginx-ingress:5.5.2", and the two disagree. Allowed: one of the two keys. Fix: keep mara:ingressImageName and remove the old name: pulumi config rm mara:kicImageName',
        );
    });

    it("does not warn about MARA keys outside provider namespaces", () => {
        expect(validateConfig(aws({ "kic-helm:chart_version": "2.6.4", "logstore:data_replicas": "3" })).warnings).toEqual([]);
    });

    it("rejects unknown keys in the mara namespace with a suggestion", () => {
        expect(formatProblem(only({ "mara:eksMinSzie": "3" }))).toBe(
            "mara:eksMinSzie: is not a setting this program knows. Allowed: the keys listed in docs/configuration.md and Pulumi.yaml. Fix: did you mean mara:eksMinSize? Remove it with: pulumi config rm mara:eksMinSzie",
        );
    });

    it("warns about likely typos in MARA namespaces", () => {
        expect(validateConfig(aws({ "kic-helm:chart_verison": "2.6.4" })).warnings).toEqual([
            "kic-helm:chart_verison is not a setting this program reads and is ignored; did you mean kic-helm:chart_version?",
        ]);
    });

    it("warns about keys in a misspelled namespace, which nothing reads, naming the key without its value", () => {
        const result = validateConfig(
            aws({
                "kic-hlem:fqdn": "bank.example.com",
                "Kubernetes:cluster_name": "lab",
                "vcp:azs": '["us-east-1a","us-east-1b"]',
                "Mara:siriusAccountsPassword": "marker-secret-in-a-misspelled-namespace",
                "docena:region": "sfo3",
            }),
        );
        expect(result.problems).toEqual([]);
        expect(result.warnings).toEqual([
            'kic-hlem:fqdn is ignored: nothing reads the "kic-hlem" namespace; did you mean kic-helm:fqdn?',
            'Kubernetes:cluster_name is ignored: nothing reads the "Kubernetes" namespace; did you mean kubernetes:cluster_name?',
            'vcp:azs is ignored: nothing reads the "vcp" namespace; did you mean vpc:azs?',
            'Mara:siriusAccountsPassword is ignored: nothing reads the "Mara" namespace; did you mean mara:siriusAccountsPassword?',
            'docena:region is ignored: nothing reads the "docena" namespace; did you mean docean:region?',
        ]);
    });

    it("leaves namespaces alone that are not near one it reads (another tool's, Pulumi's own)", () => {
        // gcp is two edits from vpc, too far for a three-letter name; kic-helm-x is the namespace plus a suffix.
        expect(validateConfig(aws({ "gcp:project": "p", "pulumi:tags": '{"team":"edge"}', "kic-helm-extra:x": "y", "eks:instance_type": "t3.large" })).warnings).toEqual([
            expect.stringContaining('Keys in the "eks" namespace'),
        ]);
    });

    it("ignores MARA's Bitnami Elasticsearch settings rather than applying them to the ECK operator", () => {
        const result = validateConfig(aws({ "logstore:chart_name": "elasticsearch", "logstore:chart_version": "19.4.4" }));
        expect(result.config?.logstore.chart).toMatchObject({ chart: "eck-operator", version: "3.5.0" });
        expect(result.warnings[0]).toMatch(/^logstore:chart_name = "elasticsearch" is ignored: this platform installs the eck-operator chart/);
    });

    it("ignores a bare logstore:chart_version, which in a MARA file describes the Bitnami chart", () => {
        expect(validateConfig(aws({ "logstore:chart_version": "19.4.4" })).config?.logstore.chart.version).toBe("3.5.0");
    });

    it("reads MARA's own chart pin as the tested version, with a warning naming the key to delete", () => {
        const result = validateConfig(aws({ "certmgr:chart_version": "v1.10.0" }));
        expect(result.config?.certManager.chart.version).toBe("v1.21.1");
        expect(result.warnings).toEqual([
            "certmgr:chart_version = v1.10.0 is MARA's 2022 pin of the cert-manager chart, which cannot be deployed today; v1.21.1 is used instead (this platform's default). Delete the key to silence this warning: pulumi config rm certmgr:chart_version",
        ]);
    });

    it("warns that a chart pinned to another version than the program's gets its crds/ CRDs installed once, never upgraded", () => {
        const crds = (v: string) => `: the program applies and upgrades the CRDs of kube-prometheus-stack's crds/ directory for 88.5.3 only, so for ${v} Helm installs them once and never upgrades them. Remove the key to use 88.5.3.`;
        const crdWarnings = (w: readonly string[]) => w.filter((x) => x.includes("crds/ directory"));
        // Newer (with the newer-chart warning too); older is refused, so nothing is said about installing it; the pinned version itself: nothing.
        expect(crdWarnings(validateConfig(aws({ "mara:prometheusChartVersion": "88.6.0" })).warnings)).toEqual([`mara:prometheusChartVersion = 88.6.0${crds("88.6.0")}`]);
        expect(crdWarnings(validateConfig(aws({ "prometheus:chart_version": "88.5.2" })).warnings)).toEqual([]);
        expect(validateConfig(aws({ "mara:prometheusChartVersion": "88.5.3" })).warnings).toEqual([]);
        // A chart whose CRDs are templates (Helm upgrades them itself) draws no such warning.
        expect(crdWarnings(validateConfig(aws({ "mara:otelOperatorChartVersion": "0.123.0" })).warnings)).toEqual([]);
    });

    it("refuses a chart version older than the tested one that is not MARA's pin", () => {
        expect(formatProblem(only({ "certmgr:chart_version": "v1.14.0" }))).toBe(
            'certmgr:chart_version = "v1.14.0": is older than the cert-manager chart v1.21.1 the platform\'s values are written and tested for; older charts lack values it sets, so `pulumi up` would fail or install something other than what validation checked. Allowed: v1.21.1, or a newer release of the chart. Fix: pulumi config rm certmgr:chart_version (to install v1.21.1)',
        );
    });

    it("names a chart version this stack does not read as doing nothing, and does not also refuse it", () => {
        // MetalLB runs on existing clusters only, Argo CD only when it delivers the platform from the cluster.
        for (const key of ["mara:metallbChartVersion", "mara:argoCdChartVersion"]) {
            const result = validateConfig(aws({ [key]: "0.1.0" }));
            expect(result.problems).toEqual([]);
            expect(result.warnings.filter((w) => w.includes(key))).toHaveLength(1);
        }
        // Where it is read, the same version is refused.
        const gitops = { "mara:delivery": "gitops", "mara:gitopsRepoUrl": "https://github.com/example/platform.git", "mara:gitopsPath": "deploy/prod", "mara:fqdn": "mara.example.com" };
        expect(formatProblem(only({ "mara:argoCdChartVersion": "0.1.0", ...gitops }))).toContain(
            'mara:argoCdChartVersion = "0.1.0": is older than the argo-cd chart 10.1.1',
        );
    });

    it("reads MARA's EKS 1.21 as the default version, with a warning", () => {
        const result = validateConfig(aws({ "eks:k8s_version": "1.21" }));
        expect(result.config?.infra).toMatchObject({ eks: { version: "1.35" } });
        expect(result.warnings).toContain(
            "eks:k8s_version = 1.21 is MARA's 2022 pin of the EKS Kubernetes version, which cannot be deployed today; 1.35 is used instead (this platform's default). Delete the key to silence this warning: pulumi config rm eks:k8s_version",
        );
    });
});

describe("secrets", () => {
    it("wraps secret values as secret Outputs", async () => {
        const cfg = validateConfig(aws({ "mara:grafanaAdminPassword": "s3cret-grafana" }, { secret: ["mara:grafanaAdminPassword"] })).config!;
        const { isSecret } = await import("@pulumi/pulumi");
        expect(await isSecret(cfg.prometheus.grafanaAdminPassword!)).toBe(true);
    });

    it("warns about a secret stored in plain text, with the command that encrypts it", () => {
        expect(validateConfig(aws({ "prometheus:adminpass": "strongpass" })).warnings).toEqual([
            "prometheus:adminpass is stored in plain text in the stack file; encrypt it: pulumi config set --secret mara:grafanaAdminPassword '<value>' && pulumi config rm prometheus:adminpass",
        ]);
    });

    it("never puts a secret value in a problem message", () => {
        const p = only({ "mara:siriusAccountsPassword": "  " });
        expect(p.value).toBeUndefined();
        expect(formatProblem(p)).not.toContain("  ");
    });

    it(`refuses a Grafana administrator password shorter than ${GRAFANA_PASSWORD_MIN_LENGTH} characters, without showing it`, () => {
        const short = "x".repeat(GRAFANA_PASSWORD_MIN_LENGTH - 1);
        const secret = { secret: ["mara:grafanaAdminPassword", "prometheus:adminpass"] };
        expect(formatProblem(only({ "mara:grafanaAdminPassword": short }, secret))).toBe(
            "mara:grafanaAdminPassword: is shorter than 8 characters. Allowed: any text of at least 8 characters, on one line (stored encrypted). Fix: pulumi config set --secret mara:grafanaAdminPassword '<value>'",
        );
        expect(formatProblem(only({ "prometheus:adminpass": "1" }, secret))).toContain("prometheus:adminpass: is shorter than 8 characters");
        expect(validateConfig(aws({ "mara:grafanaAdminPassword": "x".repeat(GRAFANA_PASSWORD_MIN_LENGTH) }, secret)).problems).toEqual([]);
        // Offline, an encrypted password cannot be read, so it cannot be too short either.
        expect(ENCRYPTED_PLACEHOLDER.length).toBeGreaterThanOrEqual(GRAFANA_PASSWORD_MIN_LENGTH);
        expect(validateConfig(aws({ "mara:grafanaAdminPassword": ENCRYPTED_PLACEHOLDER }, secret)).problems).toEqual([]);
    });

    it("refuses a Grafana administrator password of two lines, which Grafana's CLI could not apply whole, without showing it", () => {
        const secret = { secret: ["mara:grafanaAdminPassword"] };
        const p = only({ "mara:grafanaAdminPassword": "first-line-pw\nsecond-line-pw" }, secret);
        expect(formatProblem(p)).toBe(
            "mara:grafanaAdminPassword: has the wrong form. Allowed: any text of at least 8 characters, on one line (stored encrypted). Fix: pulumi config set --secret mara:grafanaAdminPassword '<value>'",
        );
        expect(validateConfig(aws({ "mara:grafanaAdminPassword": "one line, spaces and 'quotes' too" }, secret)).problems).toEqual([]);
    });
});

describe("cluster name", () => {
    it("defaults to mara-<stack>, cleaned for cloud naming rules", () => {
        expect(validateConfig(aws()).config?.clusterName).toBe("mara-dev");
        const raw = { ...aws(), stack: "Team_A.Prod" };
        expect(validateConfig(raw).config?.clusterName).toBe("mara-team-a-prod");
    });

    it("rejects a name a new cluster cannot have", () => {
        expect(only({ "kubernetes:cluster_name": "My Cluster" })).toMatchObject({ key: "kubernetes:cluster_name", problem: "cannot name a new cluster" });
    });
});

describe("reporting", () => {
    it("reports every problem at once", () => {
        const found = problems({ "eks:min_size": "x", "kic:image_origin": "ftp", "logstore:master_replicas": "-2", "kic-helm:helm_repo_url": "ftp://x.example.com" });
        expect(found).toHaveLength(4);
    });

    it("returns a frozen config", () => {
        const cfg = validateConfig(fixture("minimal-aws")).config!;
        expect(Object.isFrozen(cfg)).toBe(true);
        expect(Object.isFrozen(cfg.infra)).toBe(true);
        expect(() => ((cfg as { stack: string }).stack = "x")).toThrow();
    });
});

describe("tear down", () => {
    const existing = (extra: Record<string, string>) =>
        validateConfig(rawConfig({ "kubernetes:infra_type": "kubeconfig", "kubernetes:kubeconfig": "/home/me/.kube/config", "kic-helm:fqdn": "mara.example.com", ...extra }, { files: ["/home/me/.kube/config"] }));

    it("refuses to remove CRDs from an existing cluster, naming the key, the reason and the fix", () => {
        expect(existing({ "mara:removeCrds": "true" }).problems.map(formatProblem)).toEqual([
            'mara:removeCrds = "true": asks destroy to remove CRDs from an existing cluster, which the program never does: other workloads there may use the same CRDs, and deleting a CRD deletes every object of its kind. ' +
                "Allowed: false, or leaving it unset, on an existing cluster (kubeconfig). Fix: pulumi config rm mara:removeCrds; remove a CRD you are sure is unused yourself with kubectl delete crd <name>",
        ]);
        expect(existing({ "mara:removeCrds": "false" }).config?.teardown.removeCrds).toBe(false);
        expect(existing({}).config?.teardown.removeCrds).toBe(false);
        expect(validateConfig(aws({ "mara:removeCrds": "true" })).config?.teardown.removeCrds).toBe(true);
    });
});
