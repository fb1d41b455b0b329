/** Validation and typed settings of the NGINX Ingress Controller image (MARA's kic:* keys). */
import { KIC_VERSION, splitImageName } from "../contracts";
import { KEYS } from "./keys";
import type { MaraConfig } from "./model";
import { configSetCommand } from "./problems";
import { Findings, secretOutput } from "./resolve";
import type { Lookup } from "./lookup";

/** Builds the image settings, checking NGINX Plus requirements. */
export function buildKic({ r, v, d, keyOf }: Lookup, findings: Findings): MaraConfig["kic"] {
    // A value that did not parse reads as its default here; its problem is already recorded.
    let imageName = d("kicImageName");
    const repo = r("kicImageRepository");
    const tag = r("kicImageTag");
    if (repo.source || tag.source) {
        if (r("kicImageName").source) {
            findings.warn(`${repo.source ?? tag.source} is ignored because ${keyOf("kicImageName")} is set.`);
        } else if (repo.value !== undefined || tag.value !== undefined) {
            const [defaultRepo, defaultTag] = splitImageName(imageName);
            imageName = `${repo.value ?? defaultRepo}:${tag.value ?? defaultTag}`;
        }
    }

    const makeTarget = d("kicMakeTarget");
    const keyPath = v("kicNginxPlusKeyPath");
    const certPath = v("kicNginxPlusCertPath");
    const origin = d("kicImageOrigin");
    if ((keyPath === undefined) !== (certPath === undefined)) {
        const missing = keyPath === undefined ? "kicNginxPlusKeyPath" : "kicNginxPlusCertPath";
        findings.problem({
            key: KEYS[missing].key,
            problem: "is not set, but its NGINX Plus partner is",
            allowed: "both the key and the certificate path, or neither",
            fix: configSetCommand(KEYS[missing].key, KEYS[missing].example ?? "<path>"),
        });
    }
    if (keyPath !== undefined && certPath !== undefined) {
        // MARA copied these into its source build; ours refuses Plus source builds (see below), so the
        // files would be read by nothing. Say so rather than accept them silently.
        findings.warn(
            `${keyOf("kicNginxPlusKeyPath")} and ${keyOf("kicNginxPlusCertPath")} have no effect: NGINX Plus images are pulled from NGINX's registry with ${KEYS.nginxJwt.key}, and Plus source builds are not supported. Remove them, or set ${KEYS.nginxJwt.key} to use NGINX Plus.`,
        );
    }
    if (v("ingressEnablePlus") && r("nginxJwt").value === undefined) {
        findings.problem({
            key: keyOf("ingressEnablePlus"),
            value: "true",
            problem: "turns on NGINX Plus, which needs its license token, and mara:nginxJwt is not set",
            allowed: "false, or true together with the JWT from MyF5 in mara:nginxJwt",
            fix: `${configSetCommand(KEYS.nginxJwt.key, "<jwt>", true)} (or ${configSetCommand(keyOf("ingressEnablePlus"), "false")})`,
        });
    }
    if (origin === "source" && makeTarget.includes("plus")) {
        findings.problem({
            key: keyOf("kicMakeTarget"),
            value: makeTarget,
            problem: "builds NGINX Plus, which needs BuildKit secrets that Pulumi's Docker provider cannot pass",
            allowed: "debian-image, alpine-image or ubi-image for source builds",
            fix: `build the image with \`make ${makeTarget}\` and push it, then ${configSetCommand(KEYS.kicImageOrigin.key, "registry")} && ${configSetCommand(KEYS.kicImageName.key, "<your-registry>/nginx-plus-ingress:<tag>")}`,
        });
    }
    const srcUrl = d("kicSrcUrl");
    if (origin === "source" && !isLocalPath(srcUrl)) {
        findings.problem({
            key: keyOf("kicSrcUrl"),
            value: srcUrl,
            problem: "is not a local directory; source builds run from a checkout on this machine",
            allowed: "an absolute path or file:// URL of a kubernetes-ingress checkout",
            fix: `git clone --branch v${KIC_VERSION} https://github.com/nginx/kubernetes-ingress.git ~/kubernetes-ingress && ${configSetCommand(keyOf("kicSrcUrl"), "~/kubernetes-ingress")}`,
        });
    }
    const plusImage = origin === "source" ? makeTarget.includes("plus") : imageName.includes("plus");
    if (v("ingressEnablePlus") && !plusImage) {
        findings.warn(
            `${keyOf("ingressEnablePlus")} is true but the ingress controller image (${origin === "source" ? `make target ${makeTarget}` : imageName}) ` +
                `is not an NGINX Plus image; the controller will not start in Plus mode.`,
        );
    }
    return {
        imageOrigin: origin,
        imageName,
        makeTarget,
        sourceUrl: srcUrl,
        alwaysRebuild: d("kicAlwaysRebuild"),
        nginxPlus: keyPath !== undefined && certPath !== undefined ? { keyPath, certPath } : undefined,
        nginxJwt: secretOutput(r("nginxJwt")),
    };
}

/** Whether a source location is on this machine (path or file:// URL). */
export function isLocalPath(url: string): boolean {
    return url.startsWith("/") || url.startsWith("~/") || url.startsWith("./") || url.startsWith("../") || url.startsWith("file://");
}
