import { MemoryStorage } from '../index.js';
import { runStorageConformance } from '../testing/index.js';

runStorageConformance('MemoryStorage', async (tuning) => ({ storage: new MemoryStorage(tuning) }));
