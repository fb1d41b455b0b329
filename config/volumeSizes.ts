/**
 * Volume sizes the cloud's storage can provision. Every size must be a positive quantity in Mi, Gi or Ti (the key
 * type); on a cloud the platform creates, it must also be a size that cloud's block storage and CSI driver accept,
 * or the claim stays Pending and the release times out:
 *
 * - AWS (EBS gp2/gp3, the platform's class): at most 16 TiB; a smaller request is rounded up to whole GiB by the
 *   EBS CSI driver. io2 volumes, through a StorageClass of your own (mara:storageClass), go to 64 TiB.
 * - DigitalOcean (Volumes Block Storage): 1 GiB to 16 TiB; csi-digitalocean refuses a request outside that range.
 * - Linode (Block Storage): 10 GB to 16 TB; the Linode CSI driver raises a smaller request to 10 GiB.
 * - An existing cluster: whatever its storage offers, which the program cannot know.
 *
 * Sources: Amazon EBS User Guide, "Amazon EBS volume types"; DigitalOcean Volumes "Limits"; Akamai Cloud Computing,
 * "Block Storage" ("range from 10 GB to 16 TB"); the CSI drivers' capacity checks. Read on 2026-11-24.
 */
import { volumeSizeBytes } from "../contracts/patterns";
import type { InfraType } from "../contracts";
import type { Get, KeyOf } from "./lookup";
import { configSetCommand } from "./problems";
import type { Findings } from "./resolve";

const GiB = 2 ** 30;
const TiB = 2 ** 40;

/** The range one cloud's volumes come in, and what offers it. */
interface VolumeRange {
    readonly min?: number;
    readonly max: number;
    readonly what: string;
}

/** What each infrastructure type provisions; an existing cluster has no known range. */
function rangeOf(infraType: InfraType, ownStorageClass: boolean): VolumeRange | undefined {
    switch (infraType) {
        case "aws":
            return ownStorageClass ? { max: 64 * TiB, what: "EBS volumes (io2; gp2 and gp3 stop at 16Ti)" } : { max: 16 * TiB, what: "EBS gp2/gp3 volumes (the platform's storage class)" };
        case "digitalocean":
            return { min: GiB, max: 16 * TiB, what: "DigitalOcean volumes" };
        case "linode":
            return { max: 16 * TiB, what: "Linode Block Storage volumes" };
        case "kubeconfig":
            return undefined;
    }
}

const SIZE_KEYS = ["logstoreStorageSize", "prometheusStorageSize", "dashboardStorageSize", "siriusDbStorageSize"] as const;

const show = (bytes: number) => (bytes >= TiB ? `${bytes / TiB}Ti` : `${bytes / GiB}Gi`);

/** Records each configured volume size that the infrastructure type's storage cannot provision. */
export function checkVolumeSizes(infraType: InfraType, ownStorageClass: boolean, v: Get, keyOf: KeyOf, findings: Findings): void {
    const range = rangeOf(infraType, ownStorageClass);
    if (!range) return;
    for (const id of SIZE_KEYS) {
        const size = v(id);
        const bytes = size === undefined ? undefined : volumeSizeBytes(size);
        if (size === undefined || bytes === undefined) continue;
        const tooSmall = range.min !== undefined && bytes < range.min;
        if (!tooSmall && bytes <= range.max) continue;
        findings.problem({
            key: keyOf(id),
            value: size,
            problem: `is ${tooSmall ? "smaller" : "larger"} than ${range.what} can be, so the claim would stay Pending and the release time out`,
            allowed: `${range.min === undefined ? `a size up to ${show(range.max)}` : `a size from ${show(range.min)} to ${show(range.max)}`} on ${infraType}`,
            fix: configSetCommand(keyOf(id), tooSmall ? show(range.min!) : show(range.max)),
        });
    }
}
