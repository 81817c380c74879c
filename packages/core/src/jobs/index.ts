/** Background jobs (the study ZIP): the job contracts and who may download which ZIP. */
export * from './schemas.js';
export * from './zip-rules.js';
