/**
 * What a value stored encrypted (`secure:`) reads as where it cannot be decrypted: `mara validate`, `mara plan` and
 * `mara render` read a stack file without the passphrase (config/stackFile.ts). Such a value is checked where Pulumi
 * decrypts it, by the program under `pulumi preview` and `pulumi up`.
 */
export const ENCRYPTED_PLACEHOLDER = "<encrypted>";
