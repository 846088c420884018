import type { EmulatorArea } from '../area.js';
import { spacesArea } from './spaces.js';

/** Every API area the emulator serves. Each area is one file (or folder) under areas/. */
export const AREAS: EmulatorArea[] = [spacesArea];
