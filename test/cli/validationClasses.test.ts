/**
 * Validation's yes means deployable. Every class of value the program hands to Kubernetes, Helm or a cloud is
 * checked before any resource is registered, with the rule that system applies; each class has stack files that
 * pass and stack files that fail, and each is run three ways, which must agree:
 *
 * - `mara validate -c <file>` and `mara plan -c <file>` in-process, run from a directory that is not the project
 *   (relative paths resolve against the project directory, where `pulumi` runs the program);
 * - the program itself, under mocks, with the configuration as the Pulumi CLI delivers it (Pulumi.yaml defaults
 *   merged in) and the working directory the CLI gives it (the project directory).
 *
 * Rules that depend on the day (which Kubernetes versions a cloud still creates) are checked for TEST_DAY, or
 * for the day a case names in MARA_TODAY.
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { parse, stringify } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError } from "../../config";
import { CHARTS } from "../../contracts";
import { FIXTURES, KUBECONFIG_TEXT, PULUMI_YAML, stackFile, TEST_DAY } from "../support/config";
import { helmBinary } from "../support/helm";
import { runProgram } from "../support/program";
import { runMara } from "./support/io";

/** One stack file and the verdict all three runs must reach. */
interface Case {
    readonly name: string;
    /** Config keys and values (objects become `secure:` values and YAML lists as written). */
    readonly config: Record<string, unknown>;
    /** Other top-level keys of the stack file (encryptionsalt). */
    readonly file?: Record<string, unknown>;
    readonly env?: Record<string, string>;
    /** Decrypted values the Pulumi CLI would hand the program for `secure:` keys. */
    readonly secrets?: Record<string, string>;
    /** A problem's text every run prints; or a valid stack, optionally with a warning every run prints. */
    readonly expect: { readonly problem: string } | { readonly valid: true; readonly warning?: string };
    /** Why the program is not run: the Pulumi CLI stops before starting it (it cannot decrypt the value). */
    readonly cliStops?: string;
    /** Run `mara plan` on this valid stack too (each costs a whole offline program run). */
    readonly plan?: boolean;
}

const AWS = { "kubernetes:infra_type": "AWS", "aws:region": "us-east-1" };
const KUBECONFIG = { "kubernetes:infra_type": "kubeconfig", "kubernetes:kubeconfig": "./kube/good.yaml", "kic-helm:fqdn": "mara.lab.example.org" };
const LKE = { "kubernetes:infra_type": "LKE", "linode:region": "us-central", "linode:k8s_version": "1.35", "kic-helm:fqdn": "mara.example.net" };
const DO = { "kubernetes:infra_type": "DO", "kic-helm:fqdn": "mara.example.com" };
const label63 = "a".repeat(63);
/** A stack file the Pulumi CLI wrote with the fixture kubeconfig stored encrypted (passphrase provider). */
const ENCRYPTED = parse(fs.readFileSync(path.join(FIXTURES, "encrypted", "Pulumi.encrypted-kubeconfig.yaml"), "utf8")) as {
    encryptionsalt: string;
    config: Record<string, unknown>;
};
const NONCE = "AAECAwQFBgcICQoL";
const VENDORED_CHARTS = path.join(__dirname, "..", "charts");
/** Lines of the vendored SHA256SUMS, which the traversal case copies and appends one to. */
const VENDORED_SUM_LINES = fs.readFileSync(path.join(VENDORED_CHARTS, "SHA256SUMS"), "utf8").trim().split("\n").length;
const CIPHER = "AAECAwQFBgcICQoLDA0ODxAREhM=";

/** The classes of the issue, each with passing and failing stack files. */
const CLASSES: Record<string, Case[]> = {
    "host names and DNS": [
        { name: "an IP address as the host", config: { ...DO, "kic-helm:fqdn": "203.0.113.7" }, expect: { problem: 'kic-helm:fqdn = "203.0.113.7": is an IP address, and an Ingress host or certificate name must be a DNS name' } },
        { name: "a label of 64 characters", config: { ...AWS, "mara:siriusHostname": `${"a".repeat(64)}.example.com` }, expect: { problem: "has a label of 64 characters" } },
        { name: "a name of 254 characters", config: { ...AWS, "mara:siriusHostname": `${label63}.${label63}.${label63}.${"a".repeat(58)}.com` }, expect: { problem: "is 254 characters long (a DNS name has at most 253)" } },
        { name: "an underscore", config: { ...DO, "kic-helm:fqdn": "mara_bank.example.com" }, expect: { problem: 'kic-helm:fqdn = "mara_bank.example.com": is not a valid domain name: it has a label "mara_bank"' } },
        { name: "a DigitalOcean record without a host in a domain", config: { ...DO, "kic-helm:fqdn": "example.com" }, expect: { problem: 'kic-helm:fqdn = "example.com": has no host part' } },
        {
            name: "an ACME certificate for a special-use domain",
            config: { ...AWS, "sirius:cert_type": "http01", "sirius:cert_email": "ops@example.com", "kic-helm:fqdn": "bank.example.test" },
            expect: { problem: 'kic-helm:fqdn = "bank.example.test": is under .test, a special-use domain for which the ACME issuer (Let\'s Encrypt) issues no certificate' },
        },
        { name: "a 63-character label in a 253-character name", config: { ...AWS, "mara:siriusHostname": `${label63}.${label63}.${label63}.${"a".repeat(57)}.com` }, expect: { valid: true } },
    ],
    paths: [
        { name: "the node's root as the log path", config: { ...AWS, "mara:containerLogPath": "/" }, expect: { problem: 'mara:containerLogPath = "/": is the node\'s root directory, which must never be mounted into a pod' } },
        { name: "a system directory", config: { ...AWS, "mara:containerLogPath": "/etc" }, expect: { problem: "is a system directory of the node" } },
        { name: "'..' in a host path", config: { ...AWS, "mara:containerLogPath": "/var/log/../../etc" }, expect: { problem: "contains '.' or '..' segments" } },
        { name: "a relative host path", config: { ...AWS, "mara:containerLogPath": "var/log/containers" }, expect: { problem: 'mara:containerLogPath = "var/log/containers": is not an absolute path' } },
        { name: "a host path below /var/log", config: { ...AWS, "mara:containerLogPath": "/var/log/k3s-containers" }, expect: { valid: true } },
        {
            name: "a source checkout under ~ that is not there",
            config: { ...AWS, "kic:image_origin": "source", "kic:src_url": "~/nowhere/kubernetes-ingress#v5.5.4" },
            expect: { problem: "kic:src_url = \"~/nowhere/kubernetes-ingress#v5.5.4\": names <home>/nowhere/kubernetes-ingress, which does not exist on this machine" },
        },
        {
            name: "a file:// checkout with its #ref, and ~ expanded",
            config: { ...AWS, "kic:image_origin": "source", "kic:src_url": "file://<home>/kic#v5.5.4", "mara:ingressMakeTarget": "alpine-image" },
            expect: { valid: true },
        },
    ],
    "quantities and sizes": [
        { name: "a zero volume", config: { ...AWS, "mara:logstoreStorageSize": "0Gi" }, expect: { problem: 'mara:logstoreStorageSize = "0Gi": has the wrong form. Allowed: a positive volume size in Mi, Gi or Ti, such as 10Gi' } },
        { name: "a size without a unit", config: { ...AWS, "mara:prometheusStorageSize": "10" }, expect: { problem: "a positive volume size in Mi, Gi or Ti" } },
        { name: "more EKS nodes than a managed node group holds", config: { ...AWS, "eks:max_size": "451" }, expect: { problem: 'eks:max_size = "451": is above the maximum of 450' } },
        { name: "no ingress controller", config: { ...AWS, "mara:ingressReplicas": "0" }, expect: { problem: 'mara:ingressReplicas = "0": is below the minimum of 1' } },
        { name: "a fraction of a Gi and the node group's maximum", config: { ...AWS, "mara:siriusDbStorageSize": "0.5Gi", "eks:max_size": "450" }, expect: { valid: true } },
        {
            name: "an EC2 size its family does not have",
            config: { ...AWS, "eks:instance_type": "t3.lrage" },
            expect: { problem: 'eks:instance_type = "t3.lrage": is not an instance type: the t3 family has no size "lrage". Allowed: an EC2 instance type @pulumi/aws 7.48.0 lists, such as t3.2xlarge, t3.large, t3.medium, t3.micro. Fix: pulumi config set eks:instance_type t3.large' },
        },
        {
            name: "an Arm (Graviton) node group",
            config: { ...AWS, "eks:instance_type": "m7g.large" },
            expect: { problem: 'eks:instance_type = "m7g.large": is an Arm (Graviton) instance type, and the platform\'s images are copied and run for linux/amd64' },
        },
        { name: "a droplet size one typo from a listed one", config: { ...DO, "docean:instance_size": "s-4vcpu-8g" }, expect: { problem: 'docean:instance_size = "s-4vcpu-8g": is not a droplet size @pulumi/digitalocean 4.80.1 lists (a typo of s-4vcpu-8gb?)' } },
        {
            name: "an EC2 family newer than the SDK",
            config: { ...AWS, "mara:eksInstanceType": "q9x.large" },
            expect: { valid: true, warning: "mara:eksInstanceType = q9x.large: is not an instance type @pulumi/aws 7.48.0 lists (no q9x family" },
        },
        { name: "a droplet size newer than the SDK", config: { ...DO, "docean:instance_size": "zz-128vcpu-1tb" }, expect: { valid: true, warning: "docean:instance_size = zz-128vcpu-1tb: is not a droplet size @pulumi/digitalocean 4.80.1 lists" } },
    ],
    namespaces: [
        { name: "the platform's Prometheus namespace", config: { ...AWS, "mara:siriusNamespace": "prometheus" }, expect: { problem: 'mara:siriusNamespace = "prometheus": is the namespace of the platform\'s Prometheus and Grafana' } },
        { name: "cert-manager's namespace", config: { ...AWS, "mara:siriusNamespace": "cert-manager" }, expect: { problem: "is the namespace of the platform's cert-manager" } },
        { name: "kube-system", config: { ...AWS, "mara:siriusNamespace": "kube-system" }, expect: { problem: 'mara:siriusNamespace = "kube-system": is a namespace Kubernetes owns' } },
        { name: "default", config: { ...AWS, "mara:siriusNamespace": "default" }, expect: { problem: 'mara:siriusNamespace = "default": is a namespace Kubernetes owns' } },
        { name: "a kube- name", config: { ...AWS, "mara:siriusNamespace": "kube-bank" }, expect: { problem: "is a namespace Kubernetes owns" } },
        { name: "a name like the platform's", config: { ...AWS, "mara:siriusNamespace": "prometheus-bank" }, expect: { valid: true } },
    ],
    "versions and regions": [
        { name: "EKS 1.30, whose extended support ended", config: { ...AWS, "mara:eksVersion": "1.30" }, expect: { problem: 'mara:eksVersion = "1.30": is a version EKS no longer creates clusters at: its extended support ended on 2026-07-23' } },
        { name: "EKS 1.28, older than the calendar", config: { ...AWS, "eks:k8s_version": "1.28" }, expect: { problem: 'eks:k8s_version = "1.28": is a version EKS no longer creates clusters at' } },
        { name: "EKS 1.36, newer than any EKS release", config: { ...AWS, "mara:eksVersion": "1.36" }, expect: { problem: 'mara:eksVersion = "1.36": is not a version in the EKS release calendar this program knows (newest: 1.35)' } },
        { name: "EKS 1.31 on the last day of its extended support", config: { ...AWS, "mara:eksVersion": "1.31" }, env: { MARA_TODAY: "2026-11-25" }, expect: { valid: true, warning: "mara:eksVersion = 1.31: EKS keeps 1.31 in extended support until 2026-11-26" }, plan: true },
        { name: "EKS 1.31 the day its extended support ends", config: { ...AWS, "mara:eksVersion": "1.31" }, env: { MARA_TODAY: "2026-11-26" }, expect: { problem: "its extended support ended on 2026-11-26" } },
        { name: "LKE 1.34, past its upstream end of life", config: { ...LKE, "linode:k8s_version": "1.34" }, expect: { problem: 'linode:k8s_version = "1.34": is a version LKE no longer creates: Kubernetes 1.34 reached its upstream end of life on 2026-10-27' } },
        { name: "LKE 1.38, not released", config: { ...LKE, "linode:k8s_version": "1.38" }, expect: { problem: "names Kubernetes 1.38, newer than any release this program knows (newest: 1.37), so LKE cannot create it" } },
        { name: "a DOKS slug of an unreleased version", config: { ...DO, "docean:k8s_version": "1.40.1-do.0" }, expect: { problem: "names Kubernetes 1.40, newer than any release this program knows" } },
        { name: "an AWS region the SDK does not list", config: { ...AWS, "aws:region": "us-east-7" }, expect: { problem: 'aws:region = "us-east-7": is not an AWS region; did you mean us-east-1?' } },
        { name: "a DigitalOcean region the SDK does not list", config: { ...DO, "docean:region": "nyc4" }, expect: { problem: 'docean:region = "nyc4": is not a DigitalOcean region; did you mean nyc1?' } },
        { name: "LKE 1.35 and a DOKS region the SDK lists", config: { ...LKE }, expect: { valid: true }, plan: true },
        { name: "DOKS 1.35 in syd1", config: { ...DO, "docean:k8s_version": "1.35.1-do.0", "docean:region": "syd1" }, expect: { valid: true } },
    ],
    "network ranges": [
        { name: "a public range", config: { ...AWS, "mara:vpcCidr": "8.8.0.0/16" }, expect: { problem: 'mara:vpcCidr = "8.8.0.0/16": is not a private range (RFC 1918), so it is not an address space a VPC should use' } },
        { name: "172.32.0.0/16, just past 172.16.0.0/12", config: { ...AWS, "mara:vpcCidr": "172.32.0.0/16" }, expect: { problem: "is not a private range (RFC 1918)" } },
        { name: "a multicast range", config: { ...AWS, "mara:vpcCidr": "224.1.0.0/16" }, expect: { problem: "is not a private range (RFC 1918)" } },
        { name: "a /17", config: { ...AWS, "mara:vpcCidr": "10.0.0.0/17" }, expect: { problem: 'has prefix /17. Allowed: a /16 IPv4 CIDR block inside a private range' } },
        { name: "172.31.0.0/16, the last /16 of 172.16.0.0/12", config: { ...AWS, "mara:vpcCidr": "172.31.0.0/16" }, expect: { valid: true } },
    ],
    "image and chart compatibility": [
        { name: "a controller older than the chart's flags", config: { ...AWS, "kic:image_name": "nginx/nginx-ingress:5.4.1" }, expect: { problem: 'kic:image_name = "nginx/nginx-ingress:5.4.1": is not an image the chart runs: controller 5.4.1 is outside 5.5.0 to 5.5.x' } },
        { name: "a controller newer than the chart's line", config: { ...AWS, "mara:ingressImageName": "nginx/nginx-ingress:5.6.0" }, expect: { problem: "controller 5.6.0 is outside 5.5.0 to 5.5.x" } },
        { name: "a moving tag", config: { ...AWS, "kic:image_name": "nginx/nginx-ingress:latest" }, expect: { problem: 'image tag "latest" is not a controller version' } },
        { name: "MARA's tag key with an old controller", config: { ...KUBECONFIG, "kic-helm:nginx_repository": "nginx/nginx-ingress", "kic-helm:nginx_tag": "3.7.2" }, expect: { problem: 'kic-helm:nginx_tag = "3.7.2": is not an image the chart runs' } },
        { name: "an nginx-ingress chart without recorded flags", config: { ...AWS, "kic-helm:chart_version": "2.7.0" }, expect: { problem: 'kic-helm:chart_version = "2.7.0": is an nginx-ingress chart version whose controller flags this program has not recorded' } },
        { name: "a chart older than the one tested", config: { ...AWS, "certmgr:chart_version": "v1.14.0" }, expect: { problem: 'certmgr:chart_version = "v1.14.0": is older than the cert-manager chart v1.21.1' } },
        { name: "the oldest controller the chart runs, and a newer chart with a warning", config: { ...AWS, "kic:image_name": "nginx/nginx-ingress:5.5.0", "prometheus:chart_version": "88.6.0" }, expect: { valid: true, warning: "prometheus:chart_version = 88.6.0 pins a newer kube-prometheus-stack chart" } },
    ],
    "kubeconfig paths and contents": [
        { name: "a directory", config: { ...KUBECONFIG, "kubernetes:kubeconfig": "./kube" }, expect: { problem: 'kubernetes:kubeconfig = "./kube": names a directory (resolved to <project>/kube), not a kubeconfig file' } },
        { name: "an empty file", config: { ...KUBECONFIG, "kubernetes:kubeconfig": "./kube/empty.yaml" }, expect: { problem: 'kubernetes:kubeconfig = "./kube/empty.yaml": names a file that is empty' } },
        { name: "a file that is not a kubeconfig", config: { ...KUBECONFIG, "kubernetes:kubeconfig": "./Pulumi.yaml" }, expect: { problem: 'kubernetes:kubeconfig = "./Pulumi.yaml": names a file that is not a kubeconfig: it defines no contexts' } },
        { name: "a context the kubeconfig does not have", config: { ...KUBECONFIG, "kubernetes:context_name": "prod-admin" }, expect: { problem: 'kubernetes:context_name = "prod-admin": is not a context of <project>/kube/good.yaml. Allowed: a context the kubeconfig defines: lab-admin' } },
        { name: "no current-context and no context set", config: { ...KUBECONFIG, "kubernetes:kubeconfig": "./kube/no-current.yaml" }, expect: { problem: "names a kubeconfig with no current-context, and mara:kubeContext is not set" } },
        { name: "a missing file", config: { ...KUBECONFIG, "kubernetes:kubeconfig": "/nowhere/kubeconfig" }, expect: { problem: 'kubernetes:kubeconfig = "/nowhere/kubeconfig": names a file that does not exist' } },
        {
            name: "a file next to the shell, not in the project",
            config: { ...KUBECONFIG, "kubernetes:kubeconfig": "./only-in-shell-dir.yaml" },
            expect: { problem: 'kubernetes:kubeconfig = "./only-in-shell-dir.yaml": names a file that does not exist (resolved to <project>/only-in-shell-dir.yaml)' },
        },
        { name: "an inline kubeconfig without the context asked for", config: { ...KUBECONFIG, "kubernetes:kubeconfig": KUBECONFIG_TEXT, "kubernetes:context_name": "prod-admin" }, expect: { problem: "kubernetes:context_name = \"prod-admin\": is not a context of the inline kubeconfig. Allowed: a context the kubeconfig defines. Fix: pulumi config set kubernetes:context_name <context>" } },
        { name: "a path relative to the project, its context chosen", config: { ...KUBECONFIG, "kubernetes:context_name": "lab-admin" }, expect: { valid: true }, plan: true },
        { name: "~ expanded to the home directory", config: { ...KUBECONFIG, "kubernetes:kubeconfig": "~/.kube/config" }, expect: { valid: true } },
        {
            // As `pulumi config set --secret` wrote it (test/fixtures/encrypted/); offline without the passphrase here.
            name: "an inline kubeconfig stored encrypted, as credentials should be",
            file: { encryptionsalt: ENCRYPTED.encryptionsalt },
            config: { ...KUBECONFIG, "kubernetes:kubeconfig": ENCRYPTED.config["kubernetes:kubeconfig"] },
            secrets: { "kubernetes:kubeconfig": KUBECONFIG_TEXT.trimEnd() },
            expect: { valid: true },
            plan: true,
        },
        {
            name: "an inline kubeconfig in plain text, with the user's bearer token in it",
            config: { ...KUBECONFIG, "kubernetes:kubeconfig": KUBECONFIG_TEXT },
            expect: { valid: true, warning: "kubernetes:kubeconfig is a kubeconfig stored in plain text in the stack file, and it carries a bearer token" },
        },
        { name: "a path with a space", config: { ...KUBECONFIG, "kubernetes:kubeconfig": "./kube/my lab.yaml" }, expect: { valid: true } },
        {
            name: "a loop of symbolic links",
            config: { ...KUBECONFIG, "kubernetes:kubeconfig": "./kube/loop.yaml" },
            expect: { problem: 'kubernetes:kubeconfig = "./kube/loop.yaml": names a path (resolved to <project>/kube/loop.yaml) that is a loop of symbolic links (ELOOP): following them never reaches a file' },
        },
    ],
    "chart archives (mara:chartArchiveDir)": [
        { name: "the vendored archives, in a folder whose name has a space", config: { ...KUBECONFIG, "mara:chartArchiveDir": "./chart archives" }, expect: { valid: true }, plan: true },
        { name: "SHA256SUMS as sha256sum writes it for names with a backslash and a newline", config: { ...KUBECONFIG, "mara:chartArchiveDir": "<project>/charts-escaped" }, expect: { valid: true } },
        {
            name: "another chart under the pinned name, its digest listed",
            config: { ...KUBECONFIG, "mara:chartArchiveDir": "<project>/charts-swapped" },
            expect: { problem: `(chart nginx-ingress) names the folder <project>/charts-swapped, which has nginx-ingress-${CHARTS.ingress.version}.tgz, but it holds chart cert-manager ${CHARTS.certManager.version} (its cert-manager/Chart.yaml), not nginx-ingress ${CHARTS.ingress.version}, which the stack pins` },
        },
        {
            name: "another version of the chart under the pinned name, its digest listed",
            config: { ...KUBECONFIG, "mara:chartArchiveDir": "<project>/charts-older" },
            expect: { problem: `which has nginx-ingress-${CHARTS.ingress.version}.tgz, but it holds version 2.6.3 of nginx-ingress (its nginx-ingress/Chart.yaml), not nginx-ingress ${CHARTS.ingress.version}, which the stack pins` },
        },
        {
            name: "a SHA256SUMS line leading out of the folder",
            config: { ...KUBECONFIG, "mara:chartArchiveDir": "<project>/charts-traversal" },
            expect: { problem: `whose SHA256SUMS has a line that sha256sum --check cannot use or that name no archive of this folder: line ${VENDORED_SUM_LINES + 1}: it names "../../etc/x.tgz", which leads out of the folder ('..')` },
        },
    ],
    "what the cloud or the cluster would refuse at up": [
        {
            name: "the default zone count in a region with two zones",
            config: { ...AWS, "aws:region": "us-west-1" },
            expect: { problem: 'mara:vpcAzCount = "3": asks for 3 availability zones (the default), and us-west-1 has 2 a new VPC can use (us-west-1a, us-west-1b)' },
        },
        { name: "six zones in us-east-1, where EKS uses five", config: { ...AWS, "mara:vpcAzCount": "6" }, expect: { problem: 'mara:vpcAzCount = "6": asks for 6 availability zones, and us-east-1 has 5' } },
        { name: "two zones in us-west-1", config: { ...AWS, "aws:region": "us-west-1", "mara:vpcAzCount": "2" }, expect: { valid: true }, plan: true },
        {
            name: "a NodePort controller without a host name",
            config: { ...AWS, "mara:ingressServiceType": "NodePort" },
            expect: { problem: 'mara:ingressServiceType = "NodePort": has no load balancer whose host name the platform could use, and kic-helm:fqdn (mara:fqdn), the name that points at the nodes, is not set' },
        },
        { name: "a NodePort controller with a host name", config: { ...AWS, "mara:ingressServiceType": "NodePort", "kic-helm:fqdn": "nodes.example.org" }, expect: { valid: true }, plan: true },
        {
            name: "a NodePort controller on DigitalOcean, whose DNS record needs the load balancer's IP",
            config: { ...DO, "mara:ingressServiceType": "NodePort" },
            expect: { problem: 'mara:ingressServiceType = "NodePort": has no load balancer, and on digitalocean the platform points kic-helm:fqdn at the load balancer\'s IP with a DNS record, so pulumi up would fail when it creates the record' },
        },
        {
            name: "a volume larger than EBS gp2/gp3",
            config: { ...AWS, "mara:prometheusStorageSize": "17Ti" },
            expect: { problem: 'mara:prometheusStorageSize = "17Ti": is larger than EBS gp2/gp3 volumes (the platform\'s storage class) can be' },
        },
        { name: "a volume smaller than DigitalOcean's smallest", config: { ...DO, "mara:siriusDbStorageSize": "512Mi" }, expect: { problem: 'mara:siriusDbStorageSize = "512Mi": is smaller than DigitalOcean volumes can be, so the claim would stay Pending and the release time out. Allowed: a size from 1Gi to 16Ti on digitalocean' } },
        { name: "a volume no cloud offers, on Linode", config: { ...LKE, "mara:logstoreStorageSize": "100000Ti" }, expect: { problem: 'mara:logstoreStorageSize = "100000Ti": is larger than Linode Block Storage volumes can be' } },
        { name: "the smallest and the largest volume DigitalOcean offers", config: { ...DO, "mara:siriusDbStorageSize": "1Gi", "mara:logstoreStorageSize": "16Ti" }, expect: { valid: true } },
        {
            name: "NGINX Plus mode on an open-source image",
            config: { ...AWS, "kic-helm:enable_plus": "true", "mara:nginxJwt": { secure: CIPHER } },
            secrets: { "mara:nginxJwt": "header.payload.signature" },
            expect: { problem: 'kic-helm:enable_plus = "true": runs the controller in NGINX Plus mode, but its image (nginx/nginx-ingress:5.5.4) is not an NGINX Plus image' },
        },
        {
            name: "NGINX Plus mode on the Plus image",
            config: { ...AWS, "kic-helm:enable_plus": "true", "kic:image_name": "private-registry.nginx.com/nginx-ic/nginx-plus-ingress:5.5.4", "mara:nginxJwt": { secure: CIPHER } },
            secrets: { "mara:nginxJwt": "header.payload.signature" },
            expect: { valid: true },
        },
    ],
    "unread keys, unpublished names": [
        {
            name: "an NGINX Plus JWT on a stack that pulls the open-source image",
            config: { ...AWS, "mara:nginxJwt": { secure: CIPHER } },
            secrets: { "mara:nginxJwt": "header.payload.signature" },
            expect: { valid: true, warning: "mara:nginxJwt is not used: this stack pulls nginx/nginx-ingress:5.5.4 and does not run NGINX Plus (mara:ingressEnablePlus is false)" },
        },
        {
            name: "an empty NGINX Plus JWT nothing reads",
            config: { ...AWS, "mara:nginxJwt": "" },
            expect: { valid: true, warning: "mara:nginxJwt is not used" },
        },
        {
            name: "half of MARA's kic:nginx_plus on a stack that pulls its image",
            config: { ...AWS, "kic:nginx_plus": { "kic:cert_path": "/nowhere/nginx-repo.crt" } },
            expect: { valid: true, warning: "kic:nginx_plus.kic:cert_path is not used: the NGINX Plus repository certificate and key are read only to build an NGINX Plus image from source" },
        },
        {
            name: "half of the NGINX Plus repository pair on a Plus source build",
            config: { ...AWS, "kic:image_origin": "source", "kic:make_target": "debian-image-plus", "mara:ingressNginxPlusCertPath": "/nowhere/nginx-repo.crt" },
            expect: { problem: "mara:ingressNginxPlusKeyPath: is not set, but its NGINX Plus partner is" },
        },
        {
            name: "an ACME certificate for a name outside the DigitalOcean domain the stack publishes in",
            config: { ...DO, "sirius:cert_type": "http01", "sirius:cert_email": "ops@example.com", "mara:siriusHostname": "bank.example.org" },
            expect: { valid: true, warning: "mara:siriusHostname = bank.example.org: the ACME issuer proves the certificate's name with an HTTP-01 challenge" },
        },
        {
            name: "a tarball that names no release: the advice is a form the same run accepts",
            config: { ...AWS, "kic:image_origin": "source", "kic:src_url": "https://example.com/kic-sources.tar.gz" },
            expect: { valid: true, warning: "a tarball has no #ref, so name the release in its file name (…-v5.5.4.tar.gz), or build from git: pulumi config set mara:ingressSrcUrl 'https://github.com/nginx/kubernetes-ingress.git#v5.5.4'" },
        },
        {
            name: "a tarball of a release the chart cannot run",
            config: { ...AWS, "kic:image_origin": "source", "kic:src_url": "https://example.com/kubernetes-ingress-5.4.1.tar.gz" },
            expect: { problem: "Fix: build the v5.5.4 release: pulumi config set kic:src_url 'https://github.com/nginx/kubernetes-ingress.git#v5.5.4' (a tarball names its release in its file name only)" },
        },
    ],
    "MetalLB pools and routers": [
        {
            name: "a bare address in the pool",
            config: { ...KUBECONFIG, "mara:metallbAddresses": ["192.168.1.240"] },
            expect: { problem: 'has an entry "192.168.1.240" that is one address without a prefix length, which MetalLB refuses (it reads an entry as a CIDR block or a first-last range); write 192.168.1.240/32 or 192.168.1.240-192.168.1.240' },
        },
        {
            name: "an empty pool",
            config: { ...KUBECONFIG, "mara:metallbAddresses": [] },
            expect: { problem: 'mara:metallbAddresses = "[]": is set but empty, so MetalLB would not be installed' },
        },
        {
            name: "a multicast pool, though declared",
            config: { ...KUBECONFIG, "mara:metallbAddresses": ["224.0.1.0/28"], "mara:metallbAllowedRanges": ["224.0.0.0/4"] },
            expect: { problem: 'has an entry "224.0.1.0/28" that overlaps 224.0.0.0/4, the multicast block' },
        },
        {
            name: "a router at 0.0.0.0",
            config: { ...KUBECONFIG, "mara:metallbAddresses": ["192.168.1.240/28"], "mara:metallbBgpPeers": ["0.0.0.0:64501:64500"] },
            expect: { problem: "names 0.0.0.0, in 0.0.0.0/8, the 'this network' block (RFC 1122), whose 0.0.0.0 means any address: no BGP router can be there" },
        },
        {
            name: "one router twice",
            config: { ...KUBECONFIG, "mara:metallbAddresses": ["192.168.1.240/28"], "mara:metallbBgpPeers": ["192.168.1.1:64501:64500", "192.168.1.1:64502:64500"] },
            expect: { problem: "names the router 192.168.1.1 twice; MetalLB's FRR mode refuses two BGP peers at one address on the same nodes" },
        },
        {
            name: "two cluster AS numbers",
            config: { ...KUBECONFIG, "mara:metallbAddresses": ["192.168.1.240/28"], "mara:metallbBgpPeers": ["192.168.1.1:64501:64500", "192.168.1.2:64501:64510"] },
            expect: { problem: "gives the cluster 2 AS numbers (64500, 64510)" },
        },
        {
            name: "the router inside the pool",
            config: { ...KUBECONFIG, "mara:metallbAddresses": ["192.168.1.0/24"], "mara:metallbBgpPeers": ["192.168.1.1:64501:64500"] },
            expect: { problem: "names the router 192.168.1.1, which is inside the pool entry 192.168.1.0/24" },
        },
        {
            name: "an AS number past 4294967295",
            config: { ...KUBECONFIG, "mara:metallbAddresses": ["192.168.1.240/28"], "mara:metallbBgpPeers": ["192.168.1.1:4294967296:64500"] },
            expect: { problem: "has an AS number outside 1 to 4294967295" },
        },
        {
            name: "a /32, a one-address range and two routers of one cluster ASN at both ASN limits",
            config: { ...KUBECONFIG, "mara:metallbAddresses": ["192.168.1.240/32", "192.168.1.241-192.168.1.241"], "mara:metallbBgpPeers": ["192.168.1.1:1:4294967295", "192.168.1.2:4294967295:4294967295"] },
            expect: { valid: true },
            plan: true,
        },
        {
            name: "a router at a /24's network address",
            config: { ...KUBECONFIG, "mara:metallbAddresses": ["10.20.30.0/28"], "mara:metallbBgpPeers": ["10.20.0.0:64501:64500"] },
            expect: { valid: true, warning: "mara:metallbBgpPeers = 10.20.0.0:64501:64500: names 10.20.0.0, the network address of its /24" },
        },
    ],
    "NFS servers and names": [
        { name: "a URL as the server", config: { ...KUBECONFIG, "mara:nfsServer": "nfs://nas.example.org/export", "mara:nfsPath": "/srv/nfs" }, expect: { problem: 'mara:nfsServer = "nfs://nas.example.org/export": is a URL; the NFS mount takes the server\'s address alone' } },
        { name: "a port", config: { ...KUBECONFIG, "mara:nfsServer": "192.168.1.10:2049", "mara:nfsPath": "/srv/nfs" }, expect: { problem: "has a port; NFS finds the server's port itself" } },
        { name: "octets past 255", config: { ...KUBECONFIG, "mara:nfsServer": "192.168.1.300", "mara:nfsPath": "/srv/nfs" }, expect: { problem: "is not an IPv4 address (four numbers from 0 to 255)" } },
        {
            name: "a StorageClass name of 254 characters",
            config: { ...KUBECONFIG, "mara:nfsServer": "192.168.1.10", "mara:nfsPath": "/srv/nfs", "mara:nfsStorageClass": `${label63}.${label63}.${label63}.${"a".repeat(62)}` },
            expect: { problem: "is 254 characters long (at most 253). Allowed: a StorageClass name such as mara-nfs" },
        },
        {
            name: "an IPv6 server and a StorageClass name of 253 characters",
            config: { ...KUBECONFIG, "mara:nfsServer": "fd00::10", "mara:nfsPath": "/srv/nfs", "mara:nfsStorageClass": `${label63}.${label63}.${label63}.${"a".repeat(61)}` },
            expect: { valid: true },
            plan: true,
        },
        { name: "a provisioner image without a server", config: { ...KUBECONFIG, "mara:nfsProvisionerImage": "registry.example.org/nfs:v4.0.2" }, expect: { valid: true, warning: "mara:nfsProvisionerImage does nothing without mara:nfsServer" } },
    ],
    "admission policies": [
        {
            name: "policies on EKS 1.29, which serves no ValidatingAdmissionPolicy v1",
            config: { ...AWS, "mara:admissionPolicies": "deny", "mara:eksVersion": "1.29" },
            env: { MARA_TODAY: "2025-06-01" },
            expect: { problem: 'mara:admissionPolicies = "deny": installs ValidatingAdmissionPolicies, but mara:eksVersion is 1.29: Kubernetes 1.29 does not serve admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy' },
        },
        { name: "a scope that is not one", config: { ...KUBECONFIG, "mara:admissionPolicies": "warn", "mara:admissionPolicyScope": "namespaces" }, expect: { problem: 'mara:admissionPolicyScope = "namespaces": is not a known value. Allowed: one of "platform", "cluster"' } },
        { name: "EKS 1.30 with policies, the first minor that serves them", config: { ...AWS, "mara:admissionPolicies": "deny", "mara:eksVersion": "1.30" }, env: { MARA_TODAY: "2025-06-01" }, expect: { valid: true } },
        { name: "a cluster-wide scope on an existing cluster", config: { ...KUBECONFIG, "mara:admissionPolicies": "deny", "mara:admissionPolicyScope": "cluster" }, expect: { valid: true }, plan: true },
        { name: "a scope without policies", config: { ...KUBECONFIG, "mara:admissionPolicyScope": "cluster" }, expect: { valid: true, warning: "mara:admissionPolicyScope = cluster does nothing while mara:admissionPolicies is none" } },
    ],
    "secure: values": [
        {
            name: "passphrase ciphertext that is not v1:<nonce>:<ciphertext>",
            file: { encryptionsalt: `v1:${NONCE}:v1:AAAA:BBBB` },
            config: { ...AWS, "mara:grafanaAdminPassword": { secure: "hunter2-typed-by-hand" } },
            expect: { problem: "mara:grafanaAdminPassword: has a `secure:` value that is not passphrase ciphertext" },
            cliStops: "pulumi cannot decrypt the value and stops before the program starts",
        },
        {
            name: "a nonce of the wrong size",
            file: { encryptionsalt: `v1:${NONCE}:v1:AAAA:BBBB` },
            config: { ...AWS, "mara:grafanaAdminPassword": { secure: `v1:AAAA:${CIPHER}` } },
            expect: { problem: "whose nonce is not 12 bytes of base64" },
            cliStops: "pulumi cannot decrypt the value and stops before the program starts",
        },
        {
            name: "service ciphertext that is not base64",
            config: { ...AWS, "mara:grafanaAdminPassword": { secure: "not base64!" } },
            expect: { problem: "has a `secure:` value that is not base64 ciphertext of the stack's secrets provider" },
            cliStops: "pulumi cannot decrypt the value and stops before the program starts",
        },
        {
            name: "secure: on a key that is not a secret",
            config: { ...AWS, "mara:eksInstanceType": { secure: CIPHER } },
            secrets: { "mara:eksInstanceType": "m6i.large" },
            expect: { problem: "mara:eksInstanceType: is stored encrypted (secure:), but it is not a secret setting" },
        },
        {
            name: "passphrase ciphertext as pulumi config set --secret writes it",
            file: { encryptionsalt: `v1:${NONCE}:v1:AAAA:BBBB` },
            config: { ...AWS, "mara:grafanaAdminPassword": { secure: `v1:${NONCE}:${CIPHER}` } },
            secrets: { "mara:grafanaAdminPassword": "s3cret-grafana" },
            expect: { valid: true },
        },
    ],
    "alert receivers (what Alertmanager and the services behind it accept)": [
        {
            name: "an SMTP server without a port",
            config: { ...AWS, "mara:alertEmailTo": "oncall@example.com", "mara:alertEmailFrom": "am@example.com", "mara:alertEmailSmarthost": "smtp.example.com" },
            expect: { problem: 'mara:alertEmailSmarthost = "smtp.example.com": has no port (Alertmanager needs host:port, such as smtp.example.com:587)' },
        },
        {
            name: "a token in the webhook's URL",
            config: { ...AWS, "mara:alertWebhookUrl": "https://hooks.example.com/am?token=abcdef0123456789" },
            expect: { problem: 'mara:alertWebhookUrl = "https://hooks.example.com/am?token=[secret]": holds a credential in its query' },
        },
        {
            name: "a password over a connection without TLS",
            config: { ...AWS, "mara:alertEmailTo": "oncall@example.com", "mara:alertEmailFrom": "am@example.com", "mara:alertEmailSmarthost": "smtp.example.com:25", "mara:alertEmailUsername": "am", "mara:alertEmailPassword": { secure: CIPHER }, "mara:alertEmailRequireTls": "false" },
            secrets: { "mara:alertEmailPassword": "smtp-pw" },
            expect: { problem: 'mara:alertEmailRequireTls = "false": lets Alertmanager send mara:alertEmailPassword in clear text to smtp.example.com:25' },
        },
        {
            name: "every receiver, its credentials stored encrypted",
            config: {
                ...AWS,
                "mara:alertSlackWebhookUrl": { secure: CIPHER },
                "mara:alertPagerdutyRoutingKey": { secure: CIPHER },
                "mara:alertEmailTo": ["oncall@example.com", "Platform Team <platform@example.com>"],
                "mara:alertEmailFrom": "am@example.com",
                "mara:alertEmailSmarthost": "smtp.example.com:587",
                "mara:alertEmailUsername": "am",
                "mara:alertEmailPassword": { secure: CIPHER },
                "mara:alertWebhookUrl": "https://hooks.example.com/am",
                "mara:alertWebhookBearerToken": { secure: CIPHER },
            },
            secrets: {
                "mara:alertSlackWebhookUrl": "https://hooks.slack.com/services/T0/B0/x",
                "mara:alertPagerdutyRoutingKey": "0123456789abcdef0123456789ABCDEF",
                "mara:alertEmailPassword": "smtp-pw",
                "mara:alertWebhookBearerToken": "tok",
            },
            expect: { valid: true },
        },
        {
            name: "PagerDuty alone",
            config: { ...AWS, "mara:alertPagerdutyRoutingKey": { secure: CIPHER } },
            secrets: { "mara:alertPagerdutyRoutingKey": "0123456789abcdef0123456789ABCDEF" },
            expect: { valid: true, warning: "Only PagerDuty is configured (mara:alertPagerdutyRoutingKey): it receives critical alerts, and warnings go nowhere." },
        },
    ],
};

let project: string;
let shell: string;
let stacks: string;
let home: string;
const made: string[] = [];
const tmp = (prefix: string) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    made.push(dir);
    return dir;
};
const at = (text: string) => text.replaceAll("<project>", project).replaceAll("<home>", home);
const resolveAll = (v: unknown): unknown => (typeof v === "string" ? at(v) : Array.isArray(v) ? v.map(resolveAll) : v && typeof v === "object" ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, resolveAll(x)])) : v);
const textOf = (c: Case) => stringify({ ...(c.file ?? {}), config: resolveAll(c.config) });

beforeAll(() => {
    // The project: Pulumi.yaml, kubeconfigs and a source checkout. The shell runs from elsewhere, where a
    // kubeconfig of the same relative name must not be found.
    project = tmp("mara-project-");
    shell = tmp("mara-shell-");
    stacks = tmp("mara-stacks-");
    home = tmp("mara-home-");
    fs.copyFileSync(PULUMI_YAML, path.join(project, "Pulumi.yaml"));
    fs.mkdirSync(path.join(project, "kube"));
    fs.writeFileSync(path.join(project, "kube", "good.yaml"), KUBECONFIG_TEXT);
    fs.writeFileSync(path.join(project, "kube", "empty.yaml"), "\n");
    fs.writeFileSync(path.join(project, "kube", "no-current.yaml"), KUBECONFIG_TEXT.replace(/^current-context:.*$/m, ""));
    fs.writeFileSync(path.join(project, "kube", "my lab.yaml"), KUBECONFIG_TEXT);
    fs.symlinkSync("loop-b.yaml", path.join(project, "kube", "loop.yaml"));
    fs.symlinkSync("loop.yaml", path.join(project, "kube", "loop-b.yaml"));
    // Chart archive folders: the vendored archives, and the same with one archive or its list changed.
    const ingress = `nginx-ingress-${CHARTS.ingress.version}.tgz`;
    const archives = (name: string, edit: (dir: string) => void = () => {}) => {
        const dir = path.join(project, name);
        fs.mkdirSync(dir);
        for (const f of fs.readdirSync(VENDORED_CHARTS)) if (f.endsWith(".tgz") || f === "SHA256SUMS") fs.copyFileSync(path.join(VENDORED_CHARTS, f), path.join(dir, f));
        edit(dir);
    };
    const resum = (d: string) => fs.writeFileSync(path.join(d, "SHA256SUMS"), execFileSync("sha256sum", ["--", ...fs.readdirSync(d).filter((f) => f.endsWith(".tgz")).sort()], { cwd: d }));
    archives("chart archives");
    archives("charts-escaped", (d) => {
        fs.writeFileSync(path.join(d, "old\\copy.tgz"), "x");
        fs.writeFileSync(path.join(d, "notes\nfrom ops.tgz"), "y");
        resum(d);
    });
    archives("charts-swapped", (d) => {
        fs.copyFileSync(path.join(d, `cert-manager-${CHARTS.certManager.version}.tgz`), path.join(d, ingress));
        resum(d);
    });
    archives("charts-older", (d) => {
        const src = path.join(d, "src");
        fs.mkdirSync(src);
        execFileSync("tar", ["-xzf", path.join(d, ingress), "-C", src]);
        execFileSync(helmBinary().path, ["package", path.join(src, "nginx-ingress"), "--version", "2.6.3", "--destination", src], { stdio: "ignore" });
        fs.copyFileSync(path.join(src, "nginx-ingress-2.6.3.tgz"), path.join(d, ingress));
        fs.rmSync(src, { recursive: true });
        resum(d);
    });
    archives("charts-traversal", (d) => fs.appendFileSync(path.join(d, "SHA256SUMS"), `${"0".repeat(64)}  ../../etc/x.tgz\n`));
    fs.writeFileSync(path.join(shell, "only-in-shell-dir.yaml"), KUBECONFIG_TEXT);
    fs.mkdirSync(path.join(home, ".kube"));
    fs.writeFileSync(path.join(home, ".kube", "config"), KUBECONFIG_TEXT);
    fs.mkdirSync(path.join(home, "kic", "build"), { recursive: true });
    fs.writeFileSync(path.join(home, "kic", "build", "Dockerfile"), "FROM scratch\n");
});
afterAll(() => made.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

/**
 * `mara validate|plan -c FILE`. Its fixes name the stack and the file (`pulumi config set --stack S --config-file F`,
 * configTarget.test.ts); those two flags are taken out here, where the message is compared with the program's.
 */
async function cli(command: "validate" | "plan", c: Case, file: string) {
    const r = await runMara([command, "-c", file], { cwd: shell, projectDir: project, env: { HOME: home, PATH: process.env.PATH, MARA_TODAY: TEST_DAY, ...c.env } });
    return { ...r, stderr: r.stderr.replace(/(pulumi config (?:set|rm)) --stack \S+ --config-file \S+/g, "$1") };
}

/** The program as `pulumi up` runs it: in the project directory, with the CLI's view of the configuration. */
async function program(c: Case) {
    const before = process.cwd();
    process.chdir(project);
    try {
        const raw = stackFile(textOf(c), { secrets: c.secrets, env: { HOME: home, ...c.env }, baseDir: project });
        return await runProgram(raw);
    } finally {
        process.chdir(before);
    }
}

for (const [klass, cases] of Object.entries(CLASSES)) {
    describe(klass, () => {
        it("has stack files that pass and stack files that fail", () => {
            expect(cases.some((c) => "valid" in c.expect)).toBe(true);
            expect(cases.some((c) => "problem" in c.expect)).toBe(true);
        });

        for (const c of cases) {
            it(`${"problem" in c.expect ? "fails" : "passes"}: ${c.name}`, async () => {
                const file = path.join(stacks, `Pulumi.${klass.replace(/\W+/g, "-")}-${cases.indexOf(c)}.yaml`);
                fs.writeFileSync(file, textOf(c));
                const validate = await cli("validate", c, file);
                if ("problem" in c.expect) {
                    const problem = at(c.expect.problem);
                    expect(validate.code, validate.stdout).toBe(1);
                    expect(validate.stderr).toContain(problem);
                    // Plan stops at the same problem, before running the program.
                    const plan = await cli("plan", c, file);
                    expect(plan.code).toBe(1);
                    expect(plan.stderr).toContain(problem);
                    expect(plan.stdout).toBe("");
                    if (c.cliStops) return;
                    const run = await program(c);
                    if (c.secrets && Object.keys(c.secrets).some((k) => problem.startsWith(k))) {
                        // The CLI decrypts the value for the program: it can be checked, and the message stays.
                        expect(run.error).toBeUndefined();
                        expect(run.warnings.join("\n")).toContain(problem.replace(/^[^:]+:[^:]+: /, ""));
                        return;
                    }
                    expect(run.error).toBeInstanceOf(ConfigError);
                    expect((run.error as Error).message).toContain(problem);
                    expect(run.registrations).toEqual([]);
                } else {
                    expect(validate.code, validate.stderr).toBe(0);
                    if (c.expect.warning) expect(validate.stderr).toContain(c.expect.warning);
                    if (c.plan) {
                        const plan = await cli("plan", c, file);
                        expect(plan.code, plan.stderr).toBe(0);
                        expect(plan.stdout).toContain("Helm releases (chart@version):");
                    }
                    const run = await program(c);
                    expect(run.error).toBeUndefined();
                    expect(run.registrations.length).toBeGreaterThan(50);
                    if (c.expect.warning) expect(run.warnings.join("\n")).toContain(c.expect.warning);
                }
            }, 180_000);
        }
    });
}

describe("MARA's legacy pins", () => {
    const text = fs.readFileSync(path.join(FIXTURES, "Pulumi.mara-aws.yaml"), "utf8");
    const REPLACED = ["eks:k8s_version = 1.21", "kic-helm:chart_version = 0.15.2", "kic:image_name = nginx/nginx-ingress:2.4.2", "certmgr:chart_version = v1.10.0", "prometheus:chart_version = 41.5.0", "prometheus:statsd_chart_version = 0.6.2", "sirius:chart_version = 2.3.5"];

    it("MARA's example stack file validates, plans and runs as it is, each pin replaced with a warning", async () => {
        const file = path.join(stacks, "Pulumi.mara-example.yaml");
        fs.writeFileSync(file, text);
        const c: Case = { name: "MARA", config: {}, expect: { valid: true } };
        const validate = await cli("validate", c, file);
        expect(validate.code, validate.stderr).toBe(0);
        const plan = await cli("plan", c, file);
        expect(plan.code, plan.stderr).toBe(0);
        for (const out of [validate.stderr, plan.stderr]) for (const pin of REPLACED) expect(out, pin).toContain(`warning: ${pin} is MARA's 2022 pin`);
        // What plan shows is what is installed: the tested versions, none of MARA's.
        for (const shown of ["nginx-ingress@2.6.4", "cert-manager@v1.21.1", "kube-prometheus-stack@88.5.3", "prometheus-statsd-exporter@1.0.0", "prometheus-postgres-exporter@8.2.0", "nginx/nginx-ingress:5.5.4"]) {
            expect(plan.stdout, shown).toContain(shown);
        }
        expect(plan.stdout).not.toMatch(/0\.15\.2|:2\.4\.2|v1\.10\.0|41\.5\.0|@0\.6\.2|@2\.3\.5/);
        const run = await runProgram(stackFile(text));
        expect(run.error).toBeUndefined();
        for (const pin of REPLACED) expect(run.warnings.join("\n"), pin).toContain(`${pin} is MARA's 2022 pin`);
    }, 120_000);
});
