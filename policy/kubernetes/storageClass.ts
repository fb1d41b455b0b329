/**
 * Volumes an EBS StorageClass provisions are encrypted only if the class says so; the platform's own class does,
 * and a class an application team adds must too. (DigitalOcean encrypts every volume at rest; there is no switch.)
 */
import { celLiteral } from "../celLiteral";
import type { KubeObject, KubernetesRule } from "../rule";

/** Provisioners that make EBS volumes: the CSI driver and the in-tree plugin it replaced. */
export const EBS_PROVISIONERS = ["ebs.csi.aws.com", "kubernetes.io/aws-ebs"];

const storageClass = (provisioner: string, parameters?: Record<string, string>): KubeObject => ({
    apiVersion: "storage.k8s.io/v1",
    kind: "StorageClass",
    metadata: { name: "fast" },
    provisioner,
    ...(parameters ? { parameters } : {}),
});

export const ebsStorageClassEncrypted: KubernetesRule = {
    kind: "kubernetes",
    id: "ebs-storage-class-encrypted",
    description: "StorageClasses that provision EBS volumes set parameters.encrypted: \"true\".",
    level: "mandatory",
    settings: {},
    targets: [{ group: "storage.k8s.io", kind: "StorageClass", resource: "storageclasses", clusterScoped: true }],
    check: (o) => {
        const provisioner = o.provisioner as string | undefined;
        const encrypted = (o.parameters as Record<string, string> | undefined)?.encrypted;
        if (!EBS_PROVISIONERS.includes(provisioner ?? "") || encrypted === "true") return [];
        return [`StorageClass "${o.metadata?.name}" provisions unencrypted EBS volumes: set parameters.encrypted: "true"`];
    },
    admission: {
        validations: [
            {
                expression: `!(object.provisioner in ${celLiteral(EBS_PROVISIONERS)}) || (has(object.parameters) && 'encrypted' in object.parameters && object.parameters.encrypted == 'true')`,
                message: "StorageClasses that provision EBS volumes must set parameters.encrypted: \"true\"",
            },
        ],
    },
    examples: {
        pass: [storageClass("ebs.csi.aws.com", { type: "gp3", encrypted: "true" }), storageClass("dobs.csi.digitalocean.com")],
        fail: [storageClass("ebs.csi.aws.com", { type: "gp3" }), storageClass("kubernetes.io/aws-ebs", { encrypted: "false" }), storageClass("ebs.csi.aws.com")],
    },
};
