import { writeFiles } from './repo.js';

/**
 * A package of our own in the package-spec layout (`<name>-<version>/manifest.yml`, one data
 * stream with its manifest and a fields file with a nested group), written into `dir`;
 * `agentVersion` adds `conditions.agent.version` (the agent versions the package needs).
 */
export function writeTestPackage(dir: string, name: string, version: string, options: { agentVersion?: string } = {}): void {
  const root = `${name}-${version}`;
  writeFiles(dir, {
    [`${root}/manifest.yml`]: [
      'format_version: 3.3.0',
      `name: ${name}`,
      'title: Door sensors',
      `version: ${version}`,
      'description: Collect door sensor events from the building gateway.',
      'type: integration',
      'categories: [security]',
      'conditions:',
      '  kibana:',
      '    version: ^9.0.0',
      ...(options.agentVersion ? ['  agent:', `    version: "${options.agentVersion}"`] : []),
      'owner: {github: example/doors, type: community}',
      'policy_templates:',
      '  - name: doors',
      '    title: Door sensor events',
      '    description: Events of the door sensors',
      '    inputs:',
      '      - type: udp',
      '        title: Receive events over UDP',
      '        description: The gateway sends events as UDP datagrams',
      '        vars:',
      '          - {name: listen_port, type: integer, title: Listen port, required: true, show_user: true, default: 9514}',
      '',
    ].join('\n'),
    [`${root}/data_stream/events/manifest.yml`]: [
      'title: Door events',
      'type: logs',
      'streams:',
      '  - input: udp',
      '    title: Door events',
      '    description: One event per door opening',
      '    template_path: udp.yml.hbs',
      '    vars:',
      '      - {name: building, type: text, title: Building, required: true, show_user: true}',
      '      - {name: tags, type: text, title: Tags, multi: true, show_user: true, default: [doors]}',
      '',
    ].join('\n'),
    [`${root}/data_stream/events/fields/fields.yml`]: [
      '- name: doors',
      '  type: group',
      '  fields:',
      '    - name: door_id',
      '      type: keyword',
      '      description: The door that opened.',
      '    - name: badge',
      '      type: group',
      '      fields:',
      '        - name: holder',
      '          type: keyword',
      '',
    ].join('\n'),
  });
}

/**
 * A package of two policy templates (`lobby` and `garage`, as kubernetes has nine), each collecting
 * its own data stream through a UDP input that declares vars of its own: `condition` without a
 * default and `listen_address` with one (`0.0.0.0`).
 */
export function writeMultiTemplatePackage(dir: string, name: string, version: string): void {
  const root = `${name}-${version}`;
  const template = (id: string, title: string, dataStream: string) => [
    `  - name: ${id}`,
    `    title: ${title}`,
    `    description: ${title} sensors`,
    `    data_streams: [${dataStream}]`,
    '    inputs:',
    '      - type: udp',
    '        title: Receive events over UDP',
    '        description: The gateway sends events as UDP datagrams',
    '        vars:',
    '          - {name: condition, type: text, title: Condition, required: false, show_user: false}',
    '          - {name: listen_address, type: text, title: Listen address, required: true, show_user: true, default: 0.0.0.0}',
  ];
  const dataStream = (title: string) => ['title: ' + title, 'type: logs', 'streams:', '  - {input: udp, title: ' + title + ', description: One event per datagram, template_path: udp.yml.hbs}', ''].join('\n');
  writeFiles(dir, {
    [`${root}/manifest.yml`]: [
      'format_version: 3.3.0',
      `name: ${name}`,
      'title: Facility sensors',
      `version: ${version}`,
      'description: Collect the sensor events of a building.',
      'type: integration',
      'categories: [security]',
      'conditions:',
      '  kibana:',
      '    version: ^9.0.0',
      'owner: {github: example/facility, type: community}',
      'policy_templates:',
      ...template('lobby', 'Lobby', 'doors'),
      ...template('garage', 'Garage', 'gates'),
      '',
    ].join('\n'),
    [`${root}/data_stream/doors/manifest.yml`]: dataStream('Door events'),
    [`${root}/data_stream/gates/manifest.yml`]: dataStream('Gate events'),
  });
}
