"""The GLSL 3.30 sources of the renderer's programs (:class:`~kubb3d.viewer.render.Renderer`):
pieces, ground, planar overlays, contact shadows, flat colour, shadow-map depth and sky, each a
vertex (``_VS``) and a fragment (``_FS``) shader; :data:`COMMON` holds the lighting, the shadow
lookup, the fog and the display transform the fragment shaders share."""

COMMON = """
uniform vec3 u_sun_dir;
uniform vec3 u_sun_color;
uniform vec3 u_sky_color;
uniform vec3 u_ground_color;
uniform vec3 u_eye;
uniform vec3 u_fog_color;
uniform sampler2DShadow u_shadow;
uniform float u_shadow_texel;

float shadow_at(vec4 lp, float bias) {
    vec3 p = lp.xyz / lp.w * 0.5 + 0.5;
    if (p.x <= 0.0 || p.x >= 1.0 || p.y <= 0.0 || p.y >= 1.0 || p.z >= 1.0) return 1.0;
#ifdef SOFT_SHADOWS
    float s = 0.0;
    for (int i = 0; i < 4; i++) {
        vec2 o = vec2((i & 1) == 0 ? -0.75 : 0.75, (i & 2) == 0 ? -0.75 : 0.75);
        s += texture(u_shadow, vec3(p.xy + o * u_shadow_texel, p.z - bias));
    }
    return s * 0.25;
#else
    return texture(u_shadow, vec3(p.xy, p.z - bias));   // one bilinear 2x2 comparison
#endif
}

vec3 fog(vec3 c, vec3 world) {
    float d = length(world - u_eye);
    float f = clamp((d - 12.0) * 0.02, 0.0, 0.85);
    return mix(c, u_fog_color, f * (2.0 - f));
}

vec4 finish(vec3 c) {
    c = c / (1.0 + 0.15 * c);               // gentle highlight roll-off
    return vec4(sqrt(max(c, 0.0)), 1.0);    // display gamma 2 (cheap on CPU renderers)
}
"""

PIECE_VS = """
#version 330 core
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
uniform mat4 u_model;
uniform mat4 u_view_proj;
uniform mat4 u_light_vp;
out vec3 v_world;
out vec3 v_normal;
out vec3 v_local;
out vec4 v_light;
void main() {
    vec4 w = u_model * vec4(position, 1.0);
    v_world = w.xyz;
    v_normal = mat3(u_model) * normal;
    v_local = position;
    v_light = u_light_vp * w;
    gl_Position = u_view_proj * w;
}
"""

PIECE_FS = """
#version 330 core
in vec3 v_world;
in vec3 v_normal;
in vec3 v_local;
in vec4 v_light;
uniform vec3 u_albedo;
uniform vec4 u_tint;        // rgb, amount
uniform float u_grain;      // ring spacing scale, 1/m
uniform float u_seed;
uniform float u_ao_height;  // m above z = 0 where the contact occlusion ends (0: none)
out vec4 frag;
""" + COMMON + """
void main() {
    vec3 n = normalize(v_normal);
    // wood: growth rings around an axis parallel to the long axis, slightly wavy
    vec2 c = v_local.xy + vec2(0.031 + 0.01 * sin(u_seed), -0.027 + 0.01 * cos(u_seed * 1.7));
    float r = length(c) + 0.0025 * sin(v_local.z * 37.0 + u_seed) + 0.001 * sin(v_local.z * 151.0);
    float ring = 0.5 + 0.5 * sin(r * u_grain);
    vec3 albedo = u_albedo * (0.80 + 0.20 * smoothstep(0.15, 0.85, ring));
    albedo = mix(albedo, u_tint.rgb, u_tint.a);
    float ndl = dot(n, u_sun_dir);
    float sh = ndl > 0.0 ? shadow_at(v_light, 0.0015) : 0.0;
    float hemi = 0.5 + 0.5 * n.z;
    vec3 ambient = mix(u_ground_color, u_sky_color, hemi);
    // darken near the ground (contact occlusion; off for the board and the table)
    float ao = u_ao_height > 0.0 ? mix(0.55, 1.0, smoothstep(0.0, u_ao_height, v_world.z)) : 1.0;
    vec3 v = normalize(u_eye - v_world);
    vec3 h = normalize(v + u_sun_dir);
    float spec = pow(max(dot(n, h), 0.0), 24.0) * 0.12 * sh;
    vec3 col = albedo * (ambient * ao + u_sun_color * max(ndl, 0.0) * sh) + spec * u_sun_color;
    col += u_tint.rgb * u_tint.a * 0.25;    // statuses stay readable in shadow
    frag = finish(fog(col, v_world));
}
"""

GROUND_VS = """
#version 330 core
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 tint;      // display-space colour factor of the region
layout(location = 2) in float mown;     // 1 on the mown area around the pitch (stripes), else 0
uniform mat4 u_view_proj;
uniform float u_tile;                   // grass texture period, m
uniform vec3 u_eye;
out vec2 v_uv;
out vec3 v_rel;
flat out vec3 v_tint;
flat out float v_mown;
void main() {
    gl_Position = u_view_proj * vec4(position, 1.0);
    v_rel = position - u_eye;
    v_uv = position.xy / u_tile;
    v_tint = tint;
    v_mown = mown;
}
"""

GROUND_FS = """
#version 330 core
in vec2 v_uv;
in vec3 v_rel;
flat in vec3 v_tint;
flat in float v_mown;
uniform sampler2D u_grass;              // sunlit grass in display space; alpha: mowing stripe
uniform vec3 u_fog_toned;               // fog colour after the highlight roll-off (before gamma)
uniform vec2 u_stripe;                  // display-space factors of the two stripe directions
out vec4 frag;
void main() {
    vec4 t = texture(u_grass, v_uv);
    vec3 c = t.rgb * v_tint * mix(1.0, mix(u_stripe.x, u_stripe.y, t.a), v_mown);
    float f = clamp((length(v_rel) - 12.0) * 0.02, 0.0, 0.85);
    frag = vec4(sqrt(mix(c * c, u_fog_toned, f * (2.0 - f))), 1.0);   // fog mixed before gamma
}
"""

PLANAR_VS = """
#version 330 core
layout(location = 0) in vec3 position;
uniform mat4 u_model;
uniform mat4 u_view_proj;
uniform vec3 u_sun_dir;
out float v_depth;
void main() {
    vec3 w = (u_model * vec4(position, 1.0)).xyz;
    w -= u_sun_dir * (w.z / u_sun_dir.z);   // along the sun's rays onto z = 0
    gl_Position = u_view_proj * vec4(w, 1.0);
    v_depth = gl_Position.w;
}
"""

PLANAR_FS = """
#version 330 core
in float v_depth;
uniform vec3 u_shade;                   // display-space factor: shadowed / sunlit grass
out vec4 frag;
void main() {
    float f = clamp(v_depth * 0.02 - 0.24, 0.0, 0.85);
    frag = vec4(mix(u_shade, vec3(1.0), f * (2.0 - f)), 1.0);
}
"""

BLOB_VS = """
#version 330 core
layout(location = 0) in vec3 position;
layout(location = 1) in vec2 local;     // along / across the footprint from its centre, m
layout(location = 2) in vec4 shape;     // core half length, core half width, fade width (m), strength
uniform mat4 u_view_proj;
out vec2 v_local;
flat out vec4 v_shape;
void main() { v_local = local; v_shape = shape; gl_Position = u_view_proj * vec4(position, 1.0); }
"""

BLOB_FS = """
#version 330 core
in vec2 v_local;
flat in vec4 v_shape;
out vec4 frag;
void main() {
    float d = length(max(abs(v_local) - v_shape.xy, 0.0)) / v_shape.z;
    float occ = v_shape.w * (1.0 - smoothstep(0.0, 1.0, d));
    frag = vec4(vec3(1.0 - occ), 1.0);
}
"""

FLAT_VS = """
#version 330 core
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
uniform mat4 u_view_proj;
out vec3 v_world;
out float v_along;
void main() {
    v_world = position;
    v_along = normal.x;
    gl_Position = u_view_proj * vec4(position, 1.0);
}
"""

FLAT_FS = """
#version 330 core
in vec3 v_world;
in float v_along;
uniform vec4 u_color;
uniform float u_lit;      // 1: painted on the grass (shadowed), 0: unlit overlay
uniform float u_dash;     // dash period along the line, m (0: solid)
out vec4 frag;
""" + COMMON + """
void main() {
    if (u_dash > 0.0 && fract(v_along / u_dash) > 0.6) discard;
    vec3 c = u_color.rgb;
    if (u_lit > 0.5) {   // sunlit paint; the sun's shadow is multiplied on afterwards
        c = c * (mix(u_ground_color, u_sky_color, 0.85) + u_sun_color * u_sun_dir.z) * 0.75;
        frag = vec4(finish(fog(c, v_world)).rgb, u_color.a);
    } else {
        frag = vec4(sqrt(c), u_color.a);
    }
}
"""

DEPTH_VS = """
#version 330 core
layout(location = 0) in vec3 position;
uniform mat4 u_model;
uniform mat4 u_light_vp;
void main() { gl_Position = u_light_vp * u_model * vec4(position, 1.0); }
"""

DEPTH_FS = """
#version 330 core
void main() { }
"""

SKY_VS = """
#version 330 core
layout(location = 0) in vec3 position;
uniform mat4 u_inv_view_proj;
out vec3 v_dir;
void main() {
    vec4 a = u_inv_view_proj * vec4(position.xy, -1.0, 1.0);
    vec4 b = u_inv_view_proj * vec4(position.xy, 1.0, 1.0);
    v_dir = b.xyz / b.w - a.xyz / a.w;      // linear across the screen: interpolates exactly
    gl_Position = vec4(position.xy, 1.0, 1.0);
}
"""

SKY_FS = """
#version 330 core
in vec3 v_dir;
uniform vec3 u_fog_color;
uniform vec3 u_zenith;
out vec4 frag;
void main() {
    vec3 d = normalize(v_dir);
    vec3 c = mix(u_fog_color, u_zenith, sqrt(clamp(d.z, 0.0, 1.0)));
    frag = vec4(sqrt(c), 1.0);
}
"""
