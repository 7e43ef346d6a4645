/** A valid German organisation address, for the tests that create or update organisations. */
export const ORG_ADDRESS = {
  street: 'Ringstraße',
  houseNumber: '7',
  zipCode: '04109',
  city: 'Leipzig',
  country: 'Deutschland',
};
