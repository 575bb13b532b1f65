/** The reference service's url input and the app server's webhooks share one policy (shared/address-policy.ts). */
export {
  addressPolicy,
  isPublicAddress,
  type AddressPolicy,
} from '@extraction-review/server-kit/address-policy';
