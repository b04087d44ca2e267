export * from './permissions';
export * from './envelope';
export * from './errors';
export * from './resources';
export * from './auth';
export * from './requests';
export * from './queries';
