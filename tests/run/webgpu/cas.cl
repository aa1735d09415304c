/* A compare-exchange whose old value is used, in a module of its own: wgpu-native's shader
   translator aborts the process on it, so its runtime refuses the module; Dawn's runs it. */
kernel __attribute__((reqd_work_group_size(64, 1, 1))) void cas(global uint *p, global uint *old) {
    uint i = get_global_id(0);
    old[i] = atomic_cmpxchg(&p[i], i, i + 100u);
}
