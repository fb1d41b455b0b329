/**
 * The way out when a name the platform claims is taken: the setting that moves the platform's object elsewhere, where
 * one does, named both as the component's argument (for programs that use the library) and as the configuration key
 * that sets it (for this project's stacks). Keyed by the component that creates the object and its kind.
 */

/** The remedy for an object of `kind` created by a component of type `component`, if a setting moves it. */
export function remedyFor(component: string | undefined, kind: string): string | undefined {
    switch (`${component ?? ""} ${kind}`) {
        case "mara:app:Application Namespace":
        case "mara:app:Application Release":
            return "give Bank of Sirius another namespace: pulumi config set mara:siriusNamespace <name> (the Application's `namespace` argument)";
        case "mara:addons:NfsStorage StorageClass":
            return "give the NFS StorageClass another name: pulumi config set mara:nfsStorageClass <name> (NfsStorage's `storageClassName` argument)";
        case "mara:k8s:AdmissionPolicies ValidatingAdmissionPolicy":
        case "mara:k8s:AdmissionPolicies ValidatingAdmissionPolicyBinding":
            return "remove the other policy, or install none: pulumi config set mara:admissionPolicies none";
        default:
            return undefined;
    }
}
