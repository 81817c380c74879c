import { lowerPasswordCostForTests } from '../src/modules/auth/passwords.js';

// Setup file of the server's and the router's test projects: argon2 at its lowest cost (see
// lowerPasswordCostForTests; src/modules/auth/passwords.test.ts shows the server keeps the OWASP cost).
lowerPasswordCostForTests();
