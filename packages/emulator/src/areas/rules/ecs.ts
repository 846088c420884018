import { ecsFieldTypes } from '@svcform/query/ecs-fields.js';

/**
 * Whether a rule's required field is an ECS field: the server sets `required_fields[].ecs` when the
 * name is in its ECS field map with that very type (common/detection_engine/rule_management/utils.ts
 * addEcsToRequiredFields). The field set is data (data/ecs-fields.txt, src/query/ecs-fields.ts).
 */
export function isEcsField(name: string, type: string): boolean {
  return ecsFieldTypes().get(name) === type;
}
